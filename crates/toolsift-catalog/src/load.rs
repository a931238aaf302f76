//! [`Loader`] and the `load_*` functions: bytes or files in, [`Loaded`] out.

use std::io::Read;
use std::path::Path;

use toolsift_text::{available_cores, parallel_map};

use crate::common::Loaded;
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::model::ToolKind;
use crate::{mcp, openapi, parse, plugin};

/// Reads catalogs with a chosen set of [`Limits`]. The `load_*` functions use
/// `Loader::default()`.
///
/// ```
/// use toolsift_catalog::{Limits, Loader, ToolKind};
/// let mut limits = Limits::default();
/// limits.max_description_bytes = 8;
/// let loader = Loader::new(limits);
/// let loaded = loader.load(r#"[{"name": "a", "description": "a long description"}]"#, ToolKind::Plugin, "p")?;
/// assert_eq!(loaded.server.tools[0].description, "a long d");
/// assert_eq!(loaded.diagnostics.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Loader {
    limits: Limits,
}

impl Loader {
    /// A loader with these limits.
    #[must_use]
    pub fn new(limits: Limits) -> Loader {
        Loader { limits }
    }

    /// The limits in force.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Reads a document of the given kind (JSON or YAML; JSON when the first non-blank
    /// character is `{` or `[`) as the tools of `server`.
    ///
    /// # Errors
    ///
    /// When the document is too large, empty, not UTF-8, not valid JSON or YAML (with line
    /// and column), or not shaped like a catalog of this kind. Problems with single tools are
    /// diagnostics in the [`Loaded`] value instead.
    pub fn load(
        &self,
        input: impl AsRef<[u8]>,
        kind: ToolKind,
        server: &str,
    ) -> Result<Loaded, Error> {
        let input = input.as_ref();
        if input.len() <= self.limits.max_document_bytes && parse::is_blank(input) {
            return Err(Error::new(ErrorKind::Shape, "the file is empty"));
        }
        let parse::Parsed { value: doc, notes } = parse::parse(input, &self.limits)?;
        match kind {
            ToolKind::Mcp => mcp::load(doc, notes, server, &self.limits),
            ToolKind::OpenApi => openapi::load(&doc, notes, server, &self.limits),
            ToolKind::Plugin => plugin::load(doc, notes, server, &self.limits),
        }
    }

    /// Reads a catalog file; see [`Loader::load`].
    ///
    /// # Errors
    ///
    /// As [`Loader::load`], plus [`ErrorKind::Io`] when the file cannot be read; every error
    /// names the file.
    pub fn load_file(
        &self,
        path: impl AsRef<Path>,
        kind: ToolKind,
        server: &str,
    ) -> Result<Loaded, Error> {
        let path = path.as_ref();
        let bytes = self.read(path).map_err(|e| e.in_file(path))?;
        self.load(&bytes, kind, server).map_err(|e| e.in_file(path))
    }

    /// Reads many catalog files on all available cores (largest files first), returning one
    /// result per file in the order given. Equivalent to calling [`Loader::load_file`] on each.
    ///
    /// ```
    /// use toolsift_catalog::{Loader, ToolKind};
    /// let results = Loader::default().load_files(&[("missing.json", ToolKind::Mcp, "m")]);
    /// assert!(results[0].is_err());
    /// ```
    #[must_use]
    pub fn load_files<P: AsRef<Path> + Sync>(
        &self,
        files: &[(P, ToolKind, &str)],
    ) -> Vec<Result<Loaded, Error>> {
        let mut order: Vec<usize> = (0..files.len()).collect();
        let size = |i: &usize| std::fs::metadata(files[*i].0.as_ref()).map_or(0, |m| m.len());
        order.sort_by_key(|i| std::cmp::Reverse(size(i)));
        let load = |i: usize| {
            let (path, kind, server) = &files[i];
            (i, self.load_file(path, *kind, server))
        };
        let mut loaded = parallel_map(order, available_cores(), load);
        loaded.sort_unstable_by_key(|&(i, _)| i);
        loaded.into_iter().map(|(_, result)| result).collect()
    }

    fn read(&self, path: &Path) -> Result<Vec<u8>, Error> {
        let file =
            std::fs::File::open(path).map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        let max = self.limits.max_document_bytes;
        let mut bytes = Vec::new();
        // Read one byte past the limit, so an oversized file is detected without reading it all.
        let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
        file.take(cap)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::new(ErrorKind::Io, e.to_string()))?;
        if bytes.len() > max {
            return Err(Error::new(
                ErrorKind::TooLarge,
                format!("more than the limit of {max} bytes"),
            ));
        }
        Ok(bytes)
    }
}

/// Reads an MCP `tools/list` result (or a bare array of tools, or a JSON-RPC response) with
/// the default [`Limits`].
///
/// # Errors
///
/// See [`Loader::load`].
pub fn load_mcp(input: impl AsRef<[u8]>, server: &str) -> Result<Loaded, Error> {
    Loader::default().load(input, ToolKind::Mcp, server)
}

/// Reads an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) with the default [`Limits`].
///
/// # Errors
///
/// See [`Loader::load`].
pub fn load_openapi(input: impl AsRef<[u8]>, server: &str) -> Result<Loaded, Error> {
    Loader::default().load(input, ToolKind::OpenApi, server)
}

/// Reads an array of OpenAI or Anthropic function tools with the default [`Limits`].
///
/// # Errors
///
/// See [`Loader::load`].
pub fn load_plugin(input: impl AsRef<[u8]>, server: &str) -> Result<Loaded, Error> {
    Loader::default().load(input, ToolKind::Plugin, server)
}

/// Reads a catalog file of the given kind with the default [`Limits`].
///
/// # Errors
///
/// See [`Loader::load_file`].
pub fn load_file(path: impl AsRef<Path>, kind: ToolKind, server: &str) -> Result<Loaded, Error> {
    Loader::default().load_file(path, kind, server)
}
