//! A crate named like the workspace's `ckpt` lib, with functions of the same names that touch
//! no store.

use std::path::Path;

pub fn save_latest(dir: &Path) {
    println!("{}", dir.display());
}

pub fn load_checked(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        Ok(())
    } else {
        Err("no such directory".into())
    }
}
