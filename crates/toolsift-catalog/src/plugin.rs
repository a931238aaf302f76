//! The plugin adapter: arrays of OpenAI function tools (chat form
//! `{"type": "function", "function": {...}}` and the flat Responses-API form
//! `{"type": "function", "name": ...}`) and Anthropic tools (`{"name", "description",
//! "input_schema"}`), mixed in one file. A `{"tools": [...]}` wrapper is accepted too.

use serde_json::{Map, Value};

use crate::common::{Ctx, Loaded, input_schema, tool_name, type_word};
use crate::diagnostic::{DiagnosticKind, push_token};
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::model::{Tool, ToolId, ToolKind};
use crate::parse::Notes;

/// Reads the tools of a plugin document.
pub(crate) fn load(
    doc: Value,
    notes: Notes,
    server: &str,
    limits: &Limits,
) -> Result<Loaded, Error> {
    let (base, tools) = match doc {
        Value::Array(tools) => ("", tools),
        Value::Object(mut obj) => match obj.swap_remove("tools") {
            Some(Value::Array(tools)) => ("/tools", tools),
            _ => {
                return Err(Error::new(
                    ErrorKind::Shape,
                    "expected an array of function tools or {\"tools\": [...]}",
                ));
            }
        },
        Value::Null => return Err(Error::new(ErrorKind::Shape, "the document is empty (null)")),
        other => {
            return Err(Error::new(
                ErrorKind::Shape,
                format!("the document is {}, not an array of tools", type_word(&other)),
            ));
        }
    };
    let mut ctx = Ctx::new(server, limits, notes);
    let found = ctx.read_entries(base, tools, function_name, read_tool);
    Ok(ctx.finish(ToolKind::Plugin, found))
}

/// The name of a function tool's entry (the chat form nests the function).
fn function_name(entry: &Value) -> Option<&str> {
    entry.get("function").unwrap_or(entry).get("name").and_then(Value::as_str)
}

fn read_tool(ctx: &mut Ctx<'_>, entry: Value, pointer: &str) -> Option<Tool> {
    let Value::Object(mut obj) = entry else {
        let message = format!("the tool is {}, not an object; skipped", type_word(&entry));
        ctx.report(DiagnosticKind::NotAnObject, None, pointer, message);
        return None;
    };
    // OpenAI chat form: the function is nested.
    if let Some(function) = obj.swap_remove("function") {
        let at = push_token(pointer, "function");
        let Value::Object(mut function) = function else {
            let message =
                format!("\"function\" is {}, not an object; skipped", type_word(&function));
            ctx.report(DiagnosticKind::NotAnObject, None, &at, message);
            return None;
        };
        return function_tool(ctx, &mut function, &at, "parameters");
    }
    let kind = match obj.get("type") {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(t.clone()),
        // A `type` that is not a string says nothing: read the entry by its other fields (an
        // Anthropic tool when it has a name), and say so.
        Some(other) => {
            let message = format!("type is {}, not a string; ignored", type_word(other));
            let name = obj.get("name").and_then(Value::as_str).map(str::to_owned);
            let at = push_token(pointer, "type");
            ctx.report(DiagnosticKind::WrongType, name.as_deref(), &at, message);
            None
        }
    };
    match kind.as_deref() {
        // OpenAI Responses form: the function's fields are flat.
        Some("function") => function_tool(ctx, &mut obj, pointer, "parameters"),
        // Anthropic client tools; `type` is absent or "custom".
        None | Some("custom") if obj.contains_key("name") => {
            function_tool(ctx, &mut obj, pointer, "input_schema")
        }
        other => {
            let what =
                other.map_or_else(|| "an unknown shape".to_owned(), |t| format!("type {t:?}"));
            let name = obj.get("name").and_then(Value::as_str);
            let message = format!("{what} is not a function tool; skipped");
            ctx.report(DiagnosticKind::UnsupportedTool, name, pointer, message);
            None
        }
    }
}

fn function_tool(
    ctx: &mut Ctx<'_>,
    obj: &mut Map<String, Value>,
    pointer: &str,
    schema_key: &str,
) -> Option<Tool> {
    ctx.drop_tool = false;
    let name = tool_name(ctx, obj, pointer)?;
    let input = input_schema(ctx, obj, schema_key, &name, pointer, false)?;
    let description = ctx.opt_string(obj, "description", &name, pointer).unwrap_or_default();
    let description = ctx.description(&description, &name, &push_token(pointer, "description"));
    if std::mem::take(&mut ctx.drop_tool) {
        return None;
    }
    let mut tool = Tool::new(ToolId::new(ctx.server.clone(), name), ToolKind::Plugin);
    tool.description = description;
    tool.input_schema = input;
    Some(tool)
}
