//! The MCP adapter: a `tools/list` result (`{"tools": [...]}`), a bare array of tools, or a
//! JSON-RPC response wrapping the result.

use serde_json::Value;

use crate::common::{Ctx, Loaded, input_schema, tool_name, type_word};
use crate::diagnostic::DiagnosticKind;
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::model::{Tool, ToolId, ToolKind};
use crate::parse::Notes;

/// Reads the tools of an MCP document.
pub(crate) fn load(
    mut doc: Value,
    notes: Notes,
    server: &str,
    limits: &Limits,
) -> Result<Loaded, Error> {
    let base = locate(&doc)?;
    let tools = match doc.pointer_mut(base) {
        Some(Value::Array(tools)) => std::mem::take(tools),
        _ => Vec::new(),
    };
    let mut ctx = Ctx::new(server, limits, notes);
    let found =
        ctx.read_entries(base, tools, |entry| entry.get("name").and_then(Value::as_str), read_tool);
    Ok(ctx.finish(ToolKind::Mcp, found))
}

/// The pointer of the tools array.
fn locate(doc: &Value) -> Result<&'static str, Error> {
    match doc {
        Value::Array(_) => Ok(""),
        Value::Object(obj) => {
            if let Some(v) = obj.get("tools") {
                return match v {
                    Value::Array(_) => Ok("/tools"),
                    other => Err(shape(format!("\"tools\" is {}, not an array", type_word(other)))),
                };
            }
            if let Some(Value::Object(result)) = obj.get("result") {
                return match result.get("tools") {
                    Some(Value::Array(_)) => Ok("/result/tools"),
                    _ => Err(shape("json-rpc result without a \"tools\" array")),
                };
            }
            if let Some(error) = obj.get("error") {
                let message = error.get("message").and_then(Value::as_str).unwrap_or("");
                return Err(shape(format!("json-rpc error response: {message:?}")));
            }
            Err(shape("expected a tools/list result, an array of tools or a json-rpc response"))
        }
        Value::Null => Err(shape("the document is empty (null)")),
        other => {
            Err(shape(format!("the document is {}, not an object or array", type_word(other))))
        }
    }
}

fn shape(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Shape, message)
}

fn read_tool(ctx: &mut Ctx<'_>, entry: Value, pointer: &str) -> Option<Tool> {
    ctx.drop_tool = false;
    let Value::Object(mut obj) = entry else {
        let message = format!("the tool is {}, not an object; skipped", type_word(&entry));
        ctx.report(DiagnosticKind::NotAnObject, None, pointer, message);
        return None;
    };
    let obj = &mut obj;
    let name = tool_name(ctx, obj, pointer)?;
    let input = input_schema(ctx, obj, "inputSchema", &name, pointer, true)?;
    let description = ctx.opt_string(obj, "description", &name, pointer).unwrap_or_default();
    let description = ctx.description(
        &description,
        &name,
        &crate::diagnostic::push_token(pointer, "description"),
    );
    let annotations = ctx.opt_object(obj, "annotations", &name, pointer);
    let title = ctx.opt_string(obj, "title", &name, pointer).or_else(|| {
        annotations.as_ref().and_then(|a| a.get("title")).and_then(Value::as_str).map(str::to_owned)
    });
    let title = title.map(|t| ctx.text(t, &name, &crate::diagnostic::push_token(pointer, "title")));
    let output_schema = ctx.opt_object(obj, "outputSchema", &name, pointer);
    let meta = ctx.opt_object(obj, "_meta", &name, pointer);
    if std::mem::take(&mut ctx.drop_tool) {
        return None;
    }
    let mut tool = Tool::new(ToolId::new(ctx.server.clone(), name), ToolKind::Mcp);
    tool.title = title;
    tool.description = description;
    tool.input_schema = input;
    tool.output_schema = output_schema;
    tool.annotations = annotations;
    tool.meta = meta;
    Some(tool)
}
