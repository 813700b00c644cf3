"""The spades-rulespec HTTP service."""
