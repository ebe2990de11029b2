"""pytest setup for python/tests: sgemm_steps is imported from this checkout's python/ folder
when it is not installed (pip install -e python/ or PYTHONPATH=python do the same)."""
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))
