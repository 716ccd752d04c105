//! Renderers of a gated run: human text, JSON lines and SARIF. Each returns a `String`; the
//! command decides where it goes (stdout, stderr, `--sarif PATH`).

pub mod color;
pub mod human;
pub mod json_lines;
pub mod sarif;
mod verdict_words;

pub use color::{use_color, ColorChoice};
pub use human::render_human;
pub use json_lines::{render_json_lines, JSON_SCHEMA_VERSION};
pub use sarif::{render_sarif, sarif_log};
