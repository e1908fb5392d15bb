"""`python -m dogfight`: the same as the `dogfight` command."""

from dogfight.cli.entry import main

main()
