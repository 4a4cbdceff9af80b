//! `cargo run -p ocpp-codegen [VENV]`: writes the OCPP message types of
//! `shared/ocpp` from the schemas of the PyPI `ocpp` package in the tools
//! virtualenv (`BACKOFFICE_TOOLS_VENV`, default `target/tools-venv`).

use std::path::{Path, PathBuf};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let venv = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("BACKOFFICE_TOOLS_VENV").map(PathBuf::from))
        .unwrap_or_else(|| root.join("target/tools-venv"));
    let Some(package) = ocpp_codegen::package_dir(&venv) else {
        eprintln!("no PyPI `ocpp` package in {} (scripts/install-test-deps.sh installs it)", venv.display());
        std::process::exit(1);
    };
    let version = ocpp_codegen::package_version(&package);
    for v in [&ocpp_codegen::V16, &ocpp_codegen::V201] {
        match ocpp_codegen::generate(v, &package.join(v.dir).join("schemas"), &version) {
            Ok(source) => {
                let out = root.join(v.out);
                if let Some(dir) = out.parent() {
                    std::fs::create_dir_all(dir).expect("the output folder");
                }
                std::fs::write(&out, source).expect("the output file");
                println!("{}: {} (ocpp {version})", v.label, v.out);
            }
            Err(e) => {
                eprintln!("{}: {e}", v.label);
                std::process::exit(1);
            }
        }
    }
}
