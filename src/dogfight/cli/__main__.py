"""`python -m dogfight.cli`: the same as the `dogfight` command."""

from dogfight.cli.main import main

main()
