//! wasm-bindgen facade (work in progress).
