"""The umpire's desk at a terminal: the turn's rolls and battles entered by answering questions,
choices to pick rather than ids to type, each answer checked as it is given; what is entered is
written through the record (`kitgen.record`) as a form's would be."""
