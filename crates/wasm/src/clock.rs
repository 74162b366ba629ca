//! The time source the computer opponent reads while it thinks: the browser's
//! `performance.now()` on wasm (it exists in workers too), the system clock natively.

use stella_ai::Clock;

#[cfg(target_arch = "wasm32")]
mod browser {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        /// `performance.now()` of the page or worker.
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        pub fn performance_now() -> f64;
    }
}

/// Milliseconds from the browser's monotonic clock (native: since creation).
#[derive(Debug)]
pub struct BrowserClock {
    #[cfg(not(target_arch = "wasm32"))]
    native: stella_ai::SystemClock,
}

impl BrowserClock {
    /// A clock reading the current platform's monotonic time.
    pub fn new() -> BrowserClock {
        BrowserClock {
            #[cfg(not(target_arch = "wasm32"))]
            native: stella_ai::SystemClock::new(),
        }
    }
}

impl Default for BrowserClock {
    fn default() -> Self {
        BrowserClock::new()
    }
}

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        #[cfg(target_arch = "wasm32")]
        {
            browser::performance_now()
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.native.now_ms()
        }
    }
}
