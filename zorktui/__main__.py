"""Allow ``python -m zorktui``."""

from zorktui.cli import main

raise SystemExit(main())
