//! Where the terminal game's lines come from: at a real terminal, a line editor with history
//! (rustyline: arrows, Ctrl+R, history kept between games); otherwise the input as given
//! (a pipe, a file, a test).

use super::Streams;
use super::screen::TerminalOptions;
use std::path::PathBuf;

/// The source of typed lines.
pub(super) struct Keyboard {
    editor: Option<rustyline::DefaultEditor>,
    history: Option<PathBuf>,
}

impl Keyboard {
    pub(super) fn new(options: TerminalOptions) -> Keyboard {
        if !options.line_editing {
            return Keyboard {
                editor: None,
                history: None,
            };
        }
        let history = super::data_dir().map(|d| d.join("play-history.txt"));
        let editor = rustyline::DefaultEditor::new().ok().map(|mut editor| {
            if let Some(path) = &history {
                // A missing or unreadable history is not worth a word: it starts empty.
                let _ = editor.load_history(path);
            }
            editor
        });
        Keyboard { editor, history }
    }

    /// The next line typed after `prompt`, or `None` when the input ends (Ctrl+D, end of a
    /// pipe). Ctrl+C abandons the line being typed.
    pub(super) fn read(
        &mut self,
        prompt: &str,
        io: &mut Streams,
    ) -> anyhow::Result<Option<String>> {
        let Some(editor) = self.editor.as_mut() else {
            write!(io.out, "{prompt}")?;
            io.out.flush()?;
            let mut line = String::new();
            return Ok((io.input.read_line(&mut line)? > 0).then_some(line));
        };
        io.out.flush()?;
        match editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                Ok(Some(line))
            }
            Err(rustyline::error::ReadlineError::Interrupted) => Ok(Some(String::new())),
            Err(rustyline::error::ReadlineError::Eof) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

impl Drop for Keyboard {
    fn drop(&mut self) {
        if let (Some(editor), Some(path)) = (self.editor.as_mut(), &self.history) {
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = editor.save_history(path);
        }
    }
}
