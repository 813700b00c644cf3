"""Double-dummy analysis under a variant's rules: the search (``search``) and when cards are
interchangeable in it (``symmetry``)."""
