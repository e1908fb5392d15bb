"""`python -m dogfight.cli`: the same as the `dogfight` command."""

from dogfight.cli.entry import main

main()
