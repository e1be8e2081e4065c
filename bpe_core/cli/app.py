"""``bpe-explorer app [streamlit args]``: the console script's extra sub-command, which runs the Streamlit app.

It is not a parsed sub-command: :func:`bpe_core.cli.console_main` hands every argument after ``app`` to
``streamlit run`` unread (the parser only lists ``app`` so that ``--help`` shows it)."""

from __future__ import annotations

import sys

NAME = "app"
HELP = "run the Streamlit app (pip install '.[app]' from a clone); arguments go to 'streamlit run'"


def run_app(streamlit_args: list[str]) -> int:
    """Run ``python -m streamlit run serve.py`` with ``streamlit_args`` (as ``sh run.sh app`` does: the app's
    pages, ``app.py``, with the live class's poll endpoint). ``serve.py`` is the repository's: next to this
    package (a clone, or an editable install), else in the current directory when that is a clone. Without
    Streamlit or without ``serve.py`` (an installed library only): a one-line message on stderr and exit status 2."""
    import importlib.util
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve().parent.parent.parent  # bpe_core/cli/app.py -> the clone
    apps = [d / "serve.py" for d in (here, Path.cwd()) if (d / "serve.py").is_file() and (d / "bpe_core").is_dir()]
    if importlib.util.find_spec("streamlit") is None or not apps:
        missing = "Streamlit is not installed" if apps else "no serve.py here or next to the bpe_core package"
        print(
            f"bpe-explorer: the app is not available ({missing}); "
            "run pip install '.[app]' in a clone of the repository, and bpe-explorer app there.",
            file=sys.stderr,
        )
        return 2
    return subprocess.call([sys.executable, "-m", "streamlit", "run", str(apps[0]), *streamlit_args])
