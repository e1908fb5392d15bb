"""The `dogfight` command line (typer + rich): see `dogfight --help` and docs/cli.md."""
