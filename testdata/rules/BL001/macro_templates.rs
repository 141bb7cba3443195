//! Store calls inside `quote!` templates are not operations. In `macro_rules!` bodies they are
//! (the body is read with its metavariables as placeholders), but what a metavariable stands
//! for is never known: an op on a metavariable store, or whose value the macro hands back to
//! its caller, is not reported.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Generates a smoke test per model that writes and discards a checkpoint.
pub fn checkpoint_smoke_test(model_ty: &str) -> TokenStream {
    let ty = format_ident!("{}", model_ty);
    let test_name = format_ident!("smoke_save_{}", model_ty.to_lowercase());
    quote! {
        #[test]
        fn #test_name() {
            use burn_store::{ModuleSnapshot, SafetensorsStore};
            let device = Default::default();
            let m = #ty::new(&device);
            let path = std::env::temp_dir().join("smoke.safetensors");
            let _ = m.save_into(&mut SafetensorsStore::from_file(&path).overwrite(true));
            m.save_into(&mut SafetensorsStore::from_file(&path).overwrite(true)).ok();
        }
    }
}

/// Declares a `save_all` helper for a list of modules.
#[macro_export]
macro_rules! save_all_best_effort {
    ($dir:expr, $($name:ident),+ $(,)?) => {
        $(
            let path = $dir.join(concat!(stringify!($name), ".safetensors"));
            let _ = $name.save_into( // expect: BL001
                &mut burn_store::SafetensorsStore::from_file(&path).overwrite(true),
            );
        )+
    };
}

macro_rules! reload {
    ($model:expr, $path:expr) => {
        $model.load_from(&mut burn_store::SafetensorsStore::from_file($path)).ok()
    };
}
