//! Negative tests: a load that a test means to fail tests the failure, not the key mapping.
//! In a `#[should_panic]` test, or with its `Result` asserted to be an `Err` (`is_err()`,
//! `unwrap_err()`, `expect_err(..)`, `matches!(r, Err(..))`), it is no PyTorch-facing load:
//! none of BL005, BL006 and BL012 speaks of it. Every other test load is one. `Net` mirrors a
//! PyTorch Sequential (a `Vec` of a module enum with a parameter-free variant), so
//! `PytorchStore`'s default renumbering mis-maps it (BL012) and its enum option is implicit
//! (BL005).

use burn::nn::{Linear, Relu};
use burn::prelude::*;

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug, Default)]
pub struct Net<B: Backend> {
    net: Vec<Layer<B>>,
}

#[cfg(test)]
mod tests {
    use burn_store::{
        ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore, PytorchStoreError,
        SafetensorsStore,
    };

    use super::Net;

    #[test]
    #[should_panic]
    fn missing_top_level_key_panics() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/top_level_key.pt");
        model.load_from(&mut store).expect("Should decode state successfully");
    }

    #[test]
    #[should_panic(expected = "do_not_exist_in_pt")]
    fn missing_field_panics() {
        let mut model = Net::default();
        model
            .load_from(&mut PytorchStore::from_file("tests/missing_field.pt"))
            .unwrap();
    }

    #[test]
    fn missing_file_is_an_error() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("nonexistent.pth");
        let result = store.apply_to(&mut model);
        assert!(result.is_err());
    }

    #[test]
    fn wrong_key_is_an_error() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt").with_top_level_key("nope");
        let result = model.load_from(&mut store);
        assert!(
            result.is_err(),
            "Should fail with invalid top level key"
        );
    }

    #[test]
    fn reader_error_matches() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("nonexistent.pth");
        let result = model.load_from(&mut store).map_err(|e| e.to_string());
        debug_assert!(matches!(result, Err(_)));
    }

    #[test]
    fn reader_error_unwrapped() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("nonexistent.pth");
        let error = model.load_from(&mut store).unwrap_err();
        assert!(matches!(error, PytorchStoreError::Reader(_)));
    }

    #[test]
    fn reader_error_expected() {
        let mut model = Net::default();
        let mut store = SafetensorsStore::from_file("nonexistent.safetensors")
            .with_from_adapter(PyTorchToBurnAdapter);
        let error = model.load_from(&mut store).expect_err("the file does not exist");
        println!("{error}");
    }

    #[test]
    fn not_ok_is_an_error() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("nonexistent.pth");
        let result = model.load_from(&mut store);
        assert!(!result.is_ok());
    }

    // The loads below are meant to succeed: the key mapping decides whether they do.

    #[test]
    fn loads() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt"); // expect: BL005, BL012
        model.load_from(&mut store).expect("Should decode state successfully");
    }

    #[test]
    fn loads_and_asserts_success() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt"); // expect: BL005, BL012
        let result = model.load_from(&mut store);
        assert!(result.is_ok());
    }

    #[test]
    fn loads_and_asserts_no_error() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt"); // expect: BL005, BL012
        let result = model.load_from(&mut store);
        assert!(!result.is_err());
    }

    #[test]
    fn loads_and_asserts_something_else() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt"); // expect: BL005, BL012
        let result = model.load_from(&mut store);
        assert!(result.is_err() || model.is_empty());
    }

    #[test]
    fn one_load_fails_the_other_must_not() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt"); // expect: BL005, BL012
        let first = model.load_from(&mut store);
        assert!(first.is_err());
        model.load_from(&mut store).expect("the second load succeeds");
    }

    #[test]
    #[ignore]
    fn slow_import() {
        let mut model = Net::default();
        model
            .load_from(&mut PytorchStore::from_file("tests/large.pt")) // expect: BL005, BL012
            .unwrap();
    }

    /// A `#[should_panic]` elsewhere says nothing about this test.
    #[test]
    fn adapter_import() {
        let mut model = Net::default();
        let mut store = SafetensorsStore::from_file("tests/linear.safetensors") // expect: BL005, BL012
            .with_from_adapter(PyTorchToBurnAdapter);
        model.load_from(&mut store).unwrap();
    }

    /// A test that asserts the load left tensors missing shows the mis-mapping on purpose
    /// (burn's own store tests do): directly, or through a binding made from `missing`.
    #[test]
    fn renumbering_off_leaves_gaps_missing() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt")
            .map_indices_contiguous(true)
            .allow_partial(true);
        let result = store.apply_to(&mut model).unwrap();
        let missing_net: Vec<_> = result.missing.iter().filter(|(p, _)| p.starts_with("net.")).collect();
        assert!(!missing_net.is_empty(), "net.1 is not in the file");
    }

    #[test]
    fn variant_names_left_missing() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt").skip_enum_variants(false).allow_partial(true);
        let result = model.load_from(&mut store).unwrap();
        assert!(result.missing.len() > 0);
    }

    /// A binding that is not made from `missing` says nothing about the load.
    #[test]
    fn applied_is_checked() {
        let mut model = Net::default();
        let mut store = PytorchStore::from_file("tests/linear.pt").allow_partial(true); // expect: BL005, BL012
        let result = model.load_from(&mut store).unwrap();
        let applied = result.applied.clone();
        assert!(!applied.is_empty());
        println!("{result}");
    }
}
