use crate::model::Mlp;

/// One pass over the (synthetic) training set.
pub fn train_epoch(model: Mlp) -> Mlp {
    model
}

/// Validation loss of the current model.
pub fn evaluate(_model: &Mlp) -> f32 {
    0.0
}
