fn main() -> std::process::ExitCode {
    ball::cli::main()
}
