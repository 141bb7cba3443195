//! Depends on `vendor/ckpt`, whose `save_latest` builds no store: the helper of the same
//! name in `crates/ckpt` is not this one.

use std::path::Path;

pub fn refresh(dir: &Path) {
    for _ in 0..3 {
        ckpt::save_latest(dir);
        let _ = ckpt::load_checked(dir);
    }
}
