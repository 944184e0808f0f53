from kitgen.cli import main

main()
