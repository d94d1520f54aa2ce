//! tahqiq's native kernels, exposed to Python as `tahqiq._native`.
//! This file only wires the modules; each kernel lives in its own file with its tests.

use pyo3::prelude::*;

pub mod fingerprint;
pub mod fuzzy;
pub mod glossary;
pub mod ner_tagger;
pub mod normalize;
pub mod pos_tagger;
pub mod scan;
pub mod unicode_class;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    normalize::register(m)?;
    scan::register(m)?;
    fuzzy::register(m)?;
    glossary::register(m)?;
    fingerprint::register(m)?;
    ner_tagger::register(m)?;
    pos_tagger::register(m)?;
    Ok(())
}
