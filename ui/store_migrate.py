"""Compatibility: ``python -m ui.store_migrate FILE URL``, the command earlier docs gave, is
``python -m bpe_server.store_migrate FILE URL`` (the migration moved with the stores)."""

from bpe_server.store_migrate import main

if __name__ == "__main__":
    raise SystemExit(main())
