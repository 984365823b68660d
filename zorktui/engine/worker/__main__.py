"""A worker process's entry: ``python -m zorktui.engine.worker FD_IN FD_OUT``."""

import sys

from zorktui.engine.worker.serve import main

if __name__ == "__main__":
    main(sys.argv[1:])
