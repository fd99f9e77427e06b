//! POST /graphql as the Node subgraph server answers it: a body that is not JSON, a missing query
//! or a document that does not parse or validate is a 400 with the errors' messages; anything
//! executed is a 200 with graphql-js's result (`{"data":…}`, or `{"errors":[…],"data":…}`).
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextExecute};
use async_graphql::parser::parse_query;
use async_graphql::parser::types::ExecutableDocument;
use async_graphql::{Executor, Request, Response, ServerError, Variables};
use axum::http::StatusCode;

use crate::unprovided_variables::omit_unprovided_variable_arguments;

/// Set once async-graphql has parsed and validated the document and starts executing it.
struct Executed(AtomicBool);

/// Marks a request as executed and, like `SUBGRAPH_DELAY_MS` in the Node server, waits the delay
/// between validation and execution.
pub struct ExecutionGate {
    pub delay: Duration,
}

impl ExtensionFactory for ExecutionGate {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(GateOfOneRequest { delay: self.delay })
    }
}

struct GateOfOneRequest {
    delay: Duration,
}

#[async_graphql::async_trait::async_trait]
impl Extension for GateOfOneRequest {
    async fn execute(&self, ctx: &ExtensionContext<'_>, operation_name: Option<&str>, next: NextExecute<'_>) -> Response {
        if let Some(executed) = ctx.data_opt::<Arc<Executed>>() {
            executed.0.store(true, Ordering::Relaxed);
        }
        if !self.delay.is_zero() {
            tokio::time::sleep(self.delay).await;
        }
        next.run(ctx, operation_name).await
    }
}

const MAX_CACHED_DOCUMENTS: usize = 1000;

thread_local! {
    /// Parsed documents by their text, as the Node server caches them: a gateway sends few distinct
    /// documents, and parsing is the largest part of async-graphql's work on a small request. A
    /// document that does not parse is left to async-graphql, which says why.
    static DOCUMENTS: RefCell<HashMap<String, ExecutableDocument>> = RefCell::new(HashMap::new());
}

fn parsed(query: &str) -> Option<ExecutableDocument> {
    DOCUMENTS.with(|documents| {
        let mut documents = documents.borrow_mut();
        if let Some(document) = documents.get(query) {
            return Some(document.clone());
        }
        let document = parse_query(query).ok()?;
        if documents.len() >= MAX_CACHED_DOCUMENTS {
            documents.clear();
        }
        documents.insert(query.to_owned(), document.clone());
        Some(document)
    })
}

pub async fn answer<E: Executor>(executor: &E, raw: &[u8]) -> (StatusCode, String) {
    let mut body: serde_json::Value = match serde_json::from_slice(raw) {
        Ok(body) => body,
        Err(_) => return messages(StatusCode::BAD_REQUEST, ["Request body is not JSON"]),
    };
    // `body.query` of a JSON null throws in the Node server, which answers 500 with the TypeError.
    if body.is_null() {
        return messages(
            StatusCode::INTERNAL_SERVER_ERROR,
            ["TypeError: Cannot read properties of null (reading 'query')"],
        );
    }
    let Some(fields) = body.as_object_mut() else {
        return messages(StatusCode::BAD_REQUEST, ["Missing query"]);
    };
    let Some(serde_json::Value::String(query)) = fields.remove("query") else {
        return messages(StatusCode::BAD_REQUEST, ["Missing query"]);
    };
    let variables = match fields.remove("variables") {
        Some(serde_json::Value::Object(variables)) => variables,
        _ => serde_json::Map::new(),
    };
    let operation_name = match fields.remove("operationName") {
        Some(serde_json::Value::String(name)) => Some(name),
        _ => None,
    };
    let document = parsed(&query).map(|mut document| {
        // Only an operation with variables can leave one unprovided.
        if query.contains('$') {
            omit_unprovided_variable_arguments(&mut document, operation_name.as_deref(), &variables);
        }
        document
    });
    let executed = Arc::new(Executed(AtomicBool::new(false)));
    let mut request = Request::new(query)
        .data(executed.clone())
        .variables(Variables::from_json(serde_json::Value::Object(variables)));
    if let Some(name) = operation_name {
        request = request.operation_name(name);
    }
    if let Some(document) = document {
        request.set_parsed_query(document);
    }
    let response = executor.execute(request).await;
    if !executed.0.load(Ordering::Relaxed) {
        return messages(StatusCode::BAD_REQUEST, response.errors.iter().map(|e| e.message.as_str()));
    }
    (StatusCode::OK, execution_result(&response))
}

/// graphql-js's ExecutionResult as JSON.stringify writes it: errors before data, no extensions.
fn execution_result(response: &Response) -> String {
    let data = serde_json::to_string(&response.data).expect("a GraphQL value is JSON");
    if response.errors.is_empty() {
        return format!(r#"{{"data":{data}}}"#);
    }
    let errors = serde_json::to_string::<[ServerError]>(&response.errors).expect("errors are JSON");
    format!(r#"{{"errors":{errors},"data":{data}}}"#)
}

fn messages<'a>(status: StatusCode, messages: impl IntoIterator<Item = &'a str>) -> (StatusCode, String) {
    let errors: Vec<serde_json::Value> = messages
        .into_iter()
        .map(|message| serde_json::json!({ "message": message }))
        .collect();
    (status, serde_json::json!({ "errors": errors }).to_string())
}
