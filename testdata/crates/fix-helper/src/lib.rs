//! Checkpoint helpers whose stores refuse to overwrite, called in epoch loops from several
//! files. BL003 is reported at each call; every fix is the same `.overwrite(true)` in the
//! helper (`tests/test_fix.py` applies them: each is written once).

pub mod checkpoint;
pub mod model;
pub mod train;
