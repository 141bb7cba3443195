//! `ModuleSnapshot::apply` returns a bare `ApplyResult`: it never fails, it only reports.

use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, PathFilter};

use crate::data::Batch;
use crate::model::{Mlp, Student};
use crate::train::{distill_step, evaluate};

pub fn copy_weights(from: &Mlp, to: &mut Mlp) {
    let snapshots = from.collect(None, None, false);
    to.apply(snapshots, None, None, false); // expect: BL007
}

pub fn copy_encoder(from: &Mlp, to: &mut Mlp) {
    let filter = PathFilter::new().with_regex(r"^encoder\.");
    let r = to.apply(from.collect(None, None, false), Some(filter), None, false); // expect: BL007
    if !r.missing.is_empty() {
        log::warn!("{} encoder tensors not copied", r.missing.len());
    }
}

/// `apply` puts the tensors it is given: the others are `missing` by design, a shape mismatch
/// lands in `errors`, which is what must be read.
pub fn copy_checked_errors_only(from: &Mlp, to: &mut Mlp) {
    let r = to.apply(from.collect(None, None, false), None, None, false);
    assert!(r.is_success());
}

pub fn copy_applied_compared(from: &Mlp, to: &mut Mlp, expected: &[String]) {
    let r = to.apply(from.collect(None, None, false), None, None, false); // expect: BL007
    assert_eq!(r.applied, expected); // says nothing of shape mismatches
}

/// Distillation: the student starts from the teacher's shared layers.
pub fn distill(device: &Device, teacher: &Mlp, batches: &[Batch], epochs: usize) -> Student {
    let mut student = Student::new(device);
    let snapshots = teacher.collect(None, None, false);
    let init = student.apply(snapshots, None, None, false);
    assert!(init.is_success() && init.missing.is_empty(), "{init}");
    for epoch in 0..epochs {
        for batch in batches {
            student = distill_step(student, teacher, batch);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&student, batches));
    }
    student
}

pub fn copy_logged(from: &Mlp, to: &mut Mlp) {
    let r = to.apply(from.collect(None, None, false), None, None, false);
    log::info!("weight copy: {r:?}");
}

pub fn copy_reported(from: &Mlp, to: &mut Mlp) {
    let r = to.apply(from.collect(None, None, false), None, None, false);
    report_copy("encoder", &r);
}

pub fn copy_returned(from: &Mlp, to: &mut Mlp) -> ApplyResult {
    let snapshots = from.collect(None, None, false);
    to.apply(snapshots, None, None, false)
}

fn report_copy(what: &str, r: &ApplyResult) {
    println!("{what}: {} applied, {} missing, {} errors", r.applied.len(), r.missing.len(), r.errors.len());
}

/// Re-valuing a module's own tensors: every path it has is among its own snapshots.
pub fn scale_in_place(model: &mut Mlp, factor: f32) {
    let snapshots = model.collect(None, None, false);
    let scaled: Vec<_> = snapshots.into_iter().map(|s| scale(s, factor)).collect();
    model.apply(scaled, None, None, false);
}

pub fn scale_in_place_chained(model: &mut Mlp, factor: f32) {
    model.apply(
        model.collect(None, None, false).into_iter().map(|s| scale(s, factor)).collect(),
        None,
        None,
        false,
    );
}

/// ... but not another module's snapshots, nor its own with others added
pub fn scale_from_other(model: &mut Mlp, other: &Mlp, factor: f32) {
    let snapshots = other.collect(None, None, false);
    let scaled: Vec<_> = snapshots.into_iter().map(|s| scale(s, factor)).collect();
    model.apply(scaled, None, None, false); // expect: BL007
}

pub fn own_snapshots_then_extended(model: &mut Mlp, extra: Vec<burn_store::TensorSnapshot>) {
    let mut snapshots = model.collect(None, None, false);
    snapshots.extend(extra);
    let r = model.apply(snapshots, None, None, false); // expect: BL007
    let _ = r;
}
