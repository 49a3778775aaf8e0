//! The `scryptic` command: see `scryptic --help`.

fn main() {
    // Not locked for the whole run: an online seat reads its lines on a thread of its own.
    let mut stdin = std::io::BufReader::new(std::io::stdin());
    let code = scryptic::cli::run_with(
        std::env::args_os(),
        scryptic::cli::TerminalOptions::detect(),
        &mut stdin,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
