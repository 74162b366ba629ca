// Builds the wasm facade (crates/wasm) and generates its JS bindings into
// web/src/wasm-pkg/ (generated, not committed).
import { join } from "node:path";
import { ensureWasmTools, run, ROOT, WEB } from "./tools.mjs";

ensureWasmTools();
run("cargo", ["build", "-p", "stella-wasm", "--target", "wasm32-unknown-unknown", "--release"]);
run("wasm-bindgen", [
  "--target", "web",
  "--out-dir", join(WEB, "src", "wasm-pkg"),
  "--out-name", "stella_wasm",
  join(ROOT, "target", "wasm32-unknown-unknown", "release", "stella_wasm.wasm"),
]);
