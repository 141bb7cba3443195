//! BL010 in a file that names no store: a filter or a remapper built for another module.

use burn::store::{KeyRemapper, PathFilter};

pub fn encoder_only() -> PathFilter {
    PathFilter::new()
        .with_regex(r"^encoder\.") // valid
        .with_regex(r"^encoder\.layers\.(0|1\.") // expect: BL010
}

pub fn renames() -> Result<KeyRemapper, regex::Error> {
    KeyRemapper::new().add_pattern("^transformer.h.(\\d+).attn.c_attn(?=.weight)", "blocks.$1.qkv") // expect: BL010
}
