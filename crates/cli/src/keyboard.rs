//! Where the terminal game's lines come from: at a real terminal, a line editor with history
//! (rustyline: arrows, Ctrl+R, history kept between games) on a thread of its own, so that a
//! clock can run while a person types (the grace period after red light ends on time, and
//! says so above the line being typed); otherwise the input as given (a pipe, a file, a test).

use super::Streams;
use super::screen::TerminalOptions;
use rustyline::ExternalPrinter;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Instant;

/// What a read gave.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Typed {
    /// A line (Ctrl+C gives an empty one).
    Line(String),
    /// The input ended (Ctrl+D, the end of a pipe).
    Ended,
    /// The deadline came first; the line being typed is still to come.
    TimeUp,
}

/// What the line editor's thread is told.
enum ToEditor {
    /// Read a line after this prompt.
    Prompt(String),
    /// The keyboard passed to the person at this seat: their own history from now on.
    HandedTo(usize),
}

/// The line editor, on its thread: prompts go to it, lines come back.
struct EditorThread {
    /// Where prompts go: the line editor's thread, or none when lines come from a pipe read
    /// on a thread (the prompt is then written to the output).
    prompts: Option<Sender<ToEditor>>,
    lines: Receiver<anyhow::Result<Option<String>>>,
    /// Prints above the line being typed.
    printer: Option<Box<dyn ExternalPrinter + Send>>,
    /// Whether a prompt was sent whose line has not come back.
    waiting: bool,
}

/// The source of typed lines.
pub(super) struct Keyboard {
    editor: Option<EditorThread>,
}

/// Each seat's lines at a keyboard people pass between them: what one typed (a refused
/// word, their rack in it) never comes back on another's Up or Ctrl+R.
#[derive(Default)]
struct Histories {
    /// The seat at the keyboard, once one is known.
    at: Option<usize>,
    /// The others' lines, kept while they are away.
    kept: std::collections::HashMap<usize, Vec<String>>,
    /// Whether more than one person typed here: then nothing of this game goes to the
    /// history file either.
    shared: bool,
}

impl Histories {
    fn hand_to(&mut self, seat: usize, editor: &mut rustyline::DefaultEditor) {
        let Some(before) = self.at.replace(seat) else {
            return;
        };
        if before == seat {
            return;
        }
        self.shared = true;
        let lines: Vec<String> = editor.history().iter().cloned().collect();
        self.kept.insert(before, lines);
        let _ = editor.clear_history();
        for line in self.kept.remove(&seat).unwrap_or_default() {
            let _ = editor.add_history_entry(line);
        }
    }
}

/// Runs the line editor: reads a line after each prompt it is sent, until the keyboard is
/// dropped; then keeps the history (unless people took turns at it).
fn run_editor(
    mut editor: rustyline::DefaultEditor,
    history: Option<PathBuf>,
    prompts: &Receiver<ToEditor>,
    lines: &Sender<anyhow::Result<Option<String>>>,
) {
    let mut histories = Histories::default();
    while let Ok(told) = prompts.recv() {
        let prompt = match told {
            ToEditor::Prompt(prompt) => prompt,
            ToEditor::HandedTo(seat) => {
                histories.hand_to(seat, &mut editor);
                continue;
            }
        };
        let read = match editor.readline(&prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                Ok(Some(line))
            }
            Err(rustyline::error::ReadlineError::Interrupted) => Ok(Some(String::new())),
            Err(rustyline::error::ReadlineError::Eof) => Ok(None),
            Err(e) => Err(e.into()),
        };
        if lines.send(read).is_err() {
            break;
        }
    }
    if let Some(path) = history.filter(|_| !histories.shared) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // A history that cannot be kept is not worth a word.
        let _ = editor.save_history(&path);
    }
}

impl Keyboard {
    pub(super) fn new(options: TerminalOptions) -> Keyboard {
        if !options.line_editing {
            return Keyboard { editor: None };
        }
        let history = super::data_dir().map(|d| d.join("play-history.txt"));
        let Ok(mut editor) = rustyline::DefaultEditor::new() else {
            return Keyboard { editor: None };
        };
        if let Some(path) = &history {
            // A missing or unreadable history is not worth a word: it starts empty.
            let _ = editor.load_history(path);
        }
        let printer = editor
            .create_external_printer()
            .ok()
            .map(|p| Box::new(p) as Box<dyn ExternalPrinter + Send>);
        let (prompts, asked) = std::sync::mpsc::channel::<ToEditor>();
        let (answer, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || run_editor(editor, history, &asked, &answer));
        Keyboard {
            editor: Some(EditorThread {
                prompts: Some(prompts),
                lines,
                printer,
                waiting: false,
            }),
        }
    }

    /// As `new`, but input that is not a terminal is read on a thread too, so that a read
    /// can give up at a deadline whatever the input (an online seat shows the server's news
    /// while it waits for a line). It reads the process's standard input.
    pub(super) fn threaded(options: TerminalOptions) -> Keyboard {
        if options.line_editing {
            return Keyboard::new(options);
        }
        let (answer, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            loop {
                let mut line = String::new();
                let read = match stdin.read_line(&mut line) {
                    Ok(0) => Ok(None),
                    Ok(_) => Ok(Some(line)),
                    Err(e) => Err(e.into()),
                };
                let ended = !matches!(read, Ok(Some(_)));
                if answer.send(read).is_err() || ended {
                    break;
                }
            }
        });
        Keyboard {
            editor: Some(EditorThread {
                prompts: None,
                lines,
                printer: None,
                waiting: false,
            }),
        }
    }

    /// Whether a read can give up at a deadline (lines come from a thread: the line editor
    /// at a terminal, or a pipe read on a thread).
    pub(super) fn can_wait(&self) -> bool {
        self.editor.is_some()
    }

    /// The next line typed after `prompt`, or `None` when the input ends (Ctrl+D, end of a
    /// pipe). Ctrl+C abandons the line being typed.
    pub(super) fn read(
        &mut self,
        prompt: &str,
        io: &mut Streams,
    ) -> anyhow::Result<Option<String>> {
        Ok(match self.read_until(prompt, None, io)? {
            Typed::Line(line) => Some(line),
            Typed::Ended | Typed::TimeUp => None,
        })
    }

    /// As `read`, giving up at `deadline` (at a real terminal; the line then being typed comes
    /// with the next read, whose prompt is not shown again). Input that is not a terminal is
    /// read as it comes: the caller checks the clock once the line is there.
    pub(super) fn read_until(
        &mut self,
        prompt: &str,
        deadline: Option<Instant>,
        io: &mut Streams,
    ) -> anyhow::Result<Typed> {
        let Some(editor) = self.editor.as_mut() else {
            write!(io.out, "{prompt}")?;
            io.out.flush()?;
            let mut line = String::new();
            return Ok(if io.input.read_line(&mut line)? > 0 {
                Typed::Line(line)
            } else {
                Typed::Ended
            });
        };
        io.out.flush()?;
        if !editor.waiting {
            match &editor.prompts {
                // The editor's thread is gone only if it failed: the input has ended.
                Some(prompts) => {
                    if prompts.send(ToEditor::Prompt(prompt.to_string())).is_err() {
                        return Ok(Typed::Ended);
                    }
                }
                None => {
                    write!(io.out, "{prompt}")?;
                    io.out.flush()?;
                }
            }
            editor.waiting = true;
        }
        let read = match deadline {
            None => editor
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(at) => editor
                .lines
                .recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match read {
            Ok(line) => {
                editor.waiting = false;
                Ok(match line? {
                    Some(line) => Typed::Line(line),
                    None => Typed::Ended,
                })
            }
            Err(RecvTimeoutError::Timeout) => Ok(Typed::TimeUp),
            Err(RecvTimeoutError::Disconnected) => Ok(Typed::Ended),
        }
    }

    /// The keyboard passed to the person at `seat` (its index): the line editor's history
    /// is theirs alone from now on, and a game people took turns in is not kept in the
    /// history file.
    pub(super) fn hand_to(&mut self, seat: usize) {
        if let Some(EditorThread {
            prompts: Some(prompts),
            ..
        }) = &self.editor
        {
            // A thread that is gone has no history to keep apart.
            let _ = prompts.send(ToEditor::HandedTo(seat));
        }
    }

    /// Writes `text` (one line) where the person sees it: above the line being typed when a
    /// line is being typed at a terminal, else on the output.
    pub(super) fn say(&mut self, text: &str, io: &mut Streams) -> anyhow::Result<()> {
        match self.editor.as_mut() {
            Some(EditorThread {
                printer: Some(printer),
                waiting: true,
                ..
            }) => {
                // A printer that fails leaves the line on the output.
                if printer.print(format!("{text}\n")).is_err() {
                    writeln!(io.out, "{text}")?;
                }
            }
            _ => writeln!(io.out, "{text}")?,
        }
        Ok(())
    }
}
