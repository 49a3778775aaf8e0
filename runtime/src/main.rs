//! The `scryptic` command: see `scryptic --help`.

fn main() {
    let stdin = std::io::stdin();
    let code = scryptic::cli::run_with(
        std::env::args_os(),
        scryptic::cli::TerminalOptions::detect(),
        &mut stdin.lock(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
