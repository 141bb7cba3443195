//! A lib whose checkpoint helper refuses to overwrite, called from the package's binary,
//! tests and examples in epoch loops. The package is `epoch-runner`: its code names the lib
//! `epoch_runner`.

pub mod checkpoint;
pub mod model;
