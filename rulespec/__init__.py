"""spades-rulespec: Spades rules as cited, executable variants."""
__version__ = "0.1.0"
