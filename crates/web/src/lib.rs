//! Scryptic in a browser. `scryptic serve` serves this crate compiled to WebAssembly at every
//! match's link (`/matches/ID`): the page shows the match, takes a seat (or comes back to the
//! one whose token this browser keeps, or watches), and plays it in the play view
//! (`scryptic-play`) over the server's WebSocket, the same view and seat the editor uses.
//!
//! **Invariant:** the page knows only the server's protocol: no Lua, no files, no threads of
//! its own; what the browser keeps is a seat's token per match and the name last typed.

pub mod app;
pub mod keep;
pub mod link;
pub mod lobby;
pub mod replay_screen;
pub mod seat_picker;
pub mod tileset;

pub use app::WebApp;

/// Marks a moment in the browser's performance timeline (`performance.mark`: the first board
/// drawn, the tileset on it), read by its developer tools and the project's measurements.
pub fn mark(name: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = name;
}

/// Names the browser's tab (the match and the seat, once joined); natively there is no tab.
pub fn set_page_title(title: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(title);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = title;
}

/// The page's entry point: the app started on the page's canvas (`#scryptic`), the match read
/// from the page's address.
#[cfg(target_arch = "wasm32")]
mod browser {
    use crate::WebApp;
    use crate::keep::LocalStorage;
    use crate::link::MatchLink;
    use scryptic_play::server_seat::Wake;
    use std::sync::Arc;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(start)]
    fn start() {
        wasm_bindgen_futures::spawn_local(async {
            if let Err(e) = run().await {
                tell(&format!("Scryptic could not start here: {e:?}"));
            }
        });
    }

    async fn run() -> Result<(), JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let document = window.document().ok_or("no document")?;
        let canvas = document
            .get_element_by_id("scryptic")
            .ok_or("the page has no canvas #scryptic")?
            .dyn_into::<web_sys::HtmlCanvasElement>()?;
        let location = window.location();
        let link = MatchLink::read(
            &location.origin()?,
            &location.pathname()?,
            &location.search()?,
        );
        eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(move |cc| {
                    let ctx = cc.egui_ctx.clone();
                    let wake: Wake = Arc::new(move || ctx.request_repaint());
                    Ok(Box::new(App(WebApp::new(
                        link,
                        Box::new(LocalStorage::open()),
                        wake,
                    ))))
                }),
            )
            .await?;
        // Drawn: the page's own words ("loading") make way.
        if let Some(loading) = document.get_element_by_id("loading") {
            loading.remove();
        }
        Ok(())
    }

    /// Says `text` in the page's own words (where the canvas cannot).
    fn tell(text: &str) {
        let element = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("loading"));
        if let Some(element) = element {
            element.set_text_content(Some(text));
        }
    }

    struct App(WebApp);

    impl eframe::App for App {
        fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
            self.0.ui(ui);
        }
    }
}
