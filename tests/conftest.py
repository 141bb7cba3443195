from __future__ import annotations

import sys
from pathlib import Path

# tests import their shared helpers (fixtures.py) as top-level modules
sys.path.insert(0, str(Path(__file__).resolve().parent))
