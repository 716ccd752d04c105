//! Which bitcode is linked into which module. One module per library or binary target of a
//! selected member (two binaries' `main` would collide): the target's crate, for a binary its
//! package's library, the package's C, and the libraries and C of the workspace members it
//! depends on (transitively), so that calls between them resolve. Each module reports only
//! the functions of the inputs it owns: its own crate, and the package's C in the library's
//! module (in the binary's when the package has no library).

use super::metadata::{Member, Workspace};
use super::rust_bitcode::{CrateBitcode, TargetRole};
use cargo_metadata::PackageId;
use std::collections::BTreeMap;
use std::path::PathBuf;
use termcheck_engine::frontend::linking::BitcodeInput;

/// One module to link and check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkUnit {
    /// The module's name (its own crate's owner label).
    pub label: String,
    pub inputs: Vec<BitcodeInput>,
    /// Owners whose functions this module reports.
    pub reported_owners: Vec<String>,
    /// Owners whose code is C (reported even without debug info).
    pub c_owners: Vec<String>,
}

/// The owner label of a crate: `PACKAGE lib `NAME`` or `PACKAGE bin `NAME``.
pub fn crate_owner(package: &str, crate_bitcode: &CrateBitcode) -> String {
    let role = match crate_bitcode.role {
        TargetRole::Lib => "lib",
        TargetRole::Bin => "bin",
    };
    format!("{package} {role} `{}`", crate_bitcode.target_name)
}

/// The owner label of a package's C code.
pub fn c_owner(package: &str) -> String {
    format!("{package} C code")
}

/// The link units of the selected members, libraries first, in workspace order.
pub fn plan(workspace: &Workspace, crates: &[CrateBitcode], c_bitcode: &BTreeMap<PackageId, Vec<PathBuf>>) -> Vec<LinkUnit> {
    let lib_of = |id: &PackageId| crates.iter().find(|c| &c.package == id && c.role == TargetRole::Lib);
    let inputs_of_c = |m: &Member| -> Vec<BitcodeInput> {
        c_bitcode.get(&m.id).into_iter().flatten().map(|p| BitcodeInput { path: p.clone(), owner: c_owner(&m.name) }).collect()
    };
    let mut units = Vec::new();
    for id in &workspace.selected {
        let Some(member) = workspace.member(id) else { continue };
        let own_lib = lib_of(id);
        let mut targets: Vec<&CrateBitcode> = crates.iter().filter(|c| &c.package == id).collect();
        targets.sort_by_key(|c| (c.role == TargetRole::Bin, c.target_name.clone()));
        for target in targets {
            let label = crate_owner(&member.name, target);
            let mut inputs = vec![BitcodeInput { path: target.bitcode.clone(), owner: label.clone() }];
            if let (TargetRole::Bin, Some(lib)) = (target.role, own_lib) {
                inputs.push(BitcodeInput { path: lib.bitcode.clone(), owner: crate_owner(&member.name, lib) });
            }
            inputs.extend(inputs_of_c(member));
            for dependency in workspace.member_closure(id) {
                if let Some(lib) = lib_of(&dependency.id) {
                    inputs.push(BitcodeInput { path: lib.bitcode.clone(), owner: crate_owner(&dependency.name, lib) });
                }
                inputs.extend(inputs_of_c(dependency));
            }
            let mut reported_owners = vec![label.clone()];
            let mut c_owners = Vec::new();
            let reports_c = target.role == TargetRole::Lib || own_lib.is_none();
            if reports_c && c_bitcode.get(id).is_some_and(|c| !c.is_empty()) {
                reported_owners.push(c_owner(&member.name));
                c_owners.push(c_owner(&member.name));
            }
            units.push(LinkUnit { label, inputs, reported_owners, c_owners });
        }
    }
    units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> PackageId {
        PackageId { repr: format!("path+file:///w/{name}#{name}@0.1.0") }
    }

    fn member(name: &str, deps: &[&str]) -> Member {
        Member {
            id: id(name),
            name: name.into(),
            manifest_dir: format!("/w/{name}").into(),
            member_dependencies: deps.iter().map(|d| id(d)).collect(),
            external_dependencies: vec![],
        }
    }

    fn bc(package: &str, target: &str, role: TargetRole) -> CrateBitcode {
        CrateBitcode {
            package: id(package),
            target_name: target.into(),
            role,
            bitcode: format!("/t/{target}-{role:?}.bc").into(),
        }
    }

    #[test]
    fn a_binary_links_its_library_and_member_dependencies_and_reports_only_itself() {
        let workspace = Workspace {
            root: "/w".into(),
            target_dir: "/w/target".into(),
            members: vec![member("core", &[]), member("app", &["core"])],
            selected: vec![id("app")],
        };
        let crates = [bc("core", "core", TargetRole::Lib), bc("app", "app", TargetRole::Bin), bc("app", "app", TargetRole::Lib)];
        let c: BTreeMap<PackageId, Vec<PathBuf>> =
            [(id("core"), vec![PathBuf::from("/o/core.o.bc")]), (id("app"), vec![PathBuf::from("/o/app.o.bc")])].into_iter().collect();
        let units = plan(&workspace, &crates, &c);
        let labels: Vec<&str> = units.iter().map(|u| u.label.as_str()).collect();
        assert_eq!(labels, ["app lib `app`", "app bin `app`"]);
        let owners = |u: &LinkUnit| u.inputs.iter().map(|i| i.owner.clone()).collect::<Vec<_>>();
        assert_eq!(owners(&units[0]), ["app lib `app`", "app C code", "core lib `core`", "core C code"]);
        assert_eq!(units[0].reported_owners, ["app lib `app`", "app C code"]);
        assert_eq!(owners(&units[1]), ["app bin `app`", "app lib `app`", "app C code", "core lib `core`", "core C code"]);
        // The package's C is reported with its library, not again with the binary.
        assert_eq!(units[1].reported_owners, ["app bin `app`"]);
    }
}
