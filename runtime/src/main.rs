//! The `scryptic` command: see `scryptic --help`.

fn main() {
    let code = scryptic::cli::run(
        std::env::args_os(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    std::process::exit(code);
}
