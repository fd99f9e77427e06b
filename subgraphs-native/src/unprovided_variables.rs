//! graphql-js reads an argument whose value is a variable the request did not provide (nullable,
//! no default) as an argument not given, so the argument's default applies: Hive Gateway sends
//! `query($first:Int){users(first:$first){…}}` without `first` and expects the first 10 users.
//! async-graphql reads such a variable as null. Dropping those arguments from the document before
//! it executes, and the variable's definition when nothing else uses it (an unused variable is an
//! invalid document), gives graphql-js's answer.
use std::collections::HashSet;

use async_graphql::parser::types::{DocumentOperations, ExecutableDocument, OperationDefinition, Selection, SelectionSet};
use async_graphql_value::Value;

/// Removes, from the operation that will run and from every fragment, each field argument whose
/// whole value is a variable of that operation that has no default and is absent from `provided`.
pub fn omit_unprovided_variable_arguments(
    document: &mut ExecutableDocument,
    operation_name: Option<&str>,
    provided: &serde_json::Map<String, serde_json::Value>,
) {
    let Some(operation) = operation_to_run(&mut document.operations, operation_name) else {
        return;
    };
    let unprovided: HashSet<String> = operation
        .variable_definitions
        .iter()
        .map(|definition| &definition.node)
        .filter(|definition| definition.default_value.is_none() && !provided.contains_key(definition.name.node.as_str()))
        .map(|definition| definition.name.node.to_string())
        .collect();
    if unprovided.is_empty() {
        return;
    }
    omit_in(&mut operation.selection_set.node, &unprovided);
    for fragment in document.fragments.values_mut() {
        omit_in(&mut fragment.node.selection_set.node, &unprovided);
    }
    let mut used = HashSet::new();
    variables_in(&operation.selection_set.node, &mut used);
    for fragment in document.fragments.values() {
        variables_in(&fragment.node.selection_set.node, &mut used);
    }
    for directive in &operation.directives {
        for (_, value) in &directive.node.arguments {
            variables_of(&value.node, &mut used);
        }
    }
    operation
        .variable_definitions
        .retain(|definition| !unprovided.contains(definition.node.name.node.as_str()) || used.contains(definition.node.name.node.as_str()));
}

fn operation_to_run<'a>(operations: &'a mut DocumentOperations, name: Option<&str>) -> Option<&'a mut OperationDefinition> {
    match (operations, name) {
        (DocumentOperations::Single(operation), None) => Some(&mut operation.node),
        (DocumentOperations::Multiple(operations), Some(name)) => {
            operations.iter_mut().find(|(n, _)| n.as_str() == name).map(|(_, op)| &mut op.node)
        }
        (DocumentOperations::Multiple(operations), None) if operations.len() == 1 => operations.values_mut().next().map(|op| &mut op.node),
        _ => None,
    }
}

fn omit_in(selection_set: &mut SelectionSet, unprovided: &HashSet<String>) {
    for selection in &mut selection_set.items {
        match &mut selection.node {
            Selection::Field(field) => {
                field
                    .node
                    .arguments
                    .retain(|(_, value)| !matches!(&value.node, Value::Variable(name) if unprovided.contains(name.as_str())));
                omit_in(&mut field.node.selection_set.node, unprovided);
            }
            Selection::InlineFragment(fragment) => omit_in(&mut fragment.node.selection_set.node, unprovided),
            Selection::FragmentSpread(_) => {}
        }
    }
}

/// Every variable a selection set still refers to, in arguments and directives, at any depth.
fn variables_in(selection_set: &SelectionSet, used: &mut HashSet<String>) {
    for selection in &selection_set.items {
        let (directives, inner) = match &selection.node {
            Selection::Field(field) => {
                for (_, value) in &field.node.arguments {
                    variables_of(&value.node, used);
                }
                (&field.node.directives, Some(&field.node.selection_set.node))
            }
            Selection::InlineFragment(fragment) => (&fragment.node.directives, Some(&fragment.node.selection_set.node)),
            Selection::FragmentSpread(spread) => (&spread.node.directives, None),
        };
        for directive in directives {
            for (_, value) in &directive.node.arguments {
                variables_of(&value.node, used);
            }
        }
        if let Some(inner) = inner {
            variables_in(inner, used);
        }
    }
}

fn variables_of(value: &Value, used: &mut HashSet<String>) {
    match value {
        Value::Variable(name) => {
            used.insert(name.to_string());
        }
        Value::List(items) => items.iter().for_each(|item| variables_of(item, used)),
        Value::Object(fields) => fields.values().for_each(|field| variables_of(field, used)),
        _ => {}
    }
}
