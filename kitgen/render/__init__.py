"""Drawing with reportlab: fonts, styles and the pieces of printed pages."""
