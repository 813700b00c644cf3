"""``python -m rulespec``: the same command line as the ``rulespec`` script."""
from rulespec.cli import main

main(prog_name="rulespec")
