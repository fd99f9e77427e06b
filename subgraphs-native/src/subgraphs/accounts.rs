//! accounts: owns User (id, name, username, birthDate) and the root fields me, user and users.
use std::collections::HashMap;
use std::sync::LazyLock;

use async_graphql::{EmptyMutation, EmptySubscription, Object, Schema, SchemaBuilder, ID};

use crate::data_set::{user, USERS_PAGE, USER_COUNT};

pub struct User {
    id: ID,
    name: String,
    username: String,
    birth_date: String,
}

#[Object]
impl User {
    async fn id(&self) -> &ID {
        &self.id
    }
    async fn name(&self) -> Option<&str> {
        Some(&self.name)
    }
    // Shareable: reviews provides it with Review.author (Federation 2 requires that).
    #[graphql(shareable)]
    async fn username(&self) -> Option<&str> {
        Some(&self.username)
    }
    async fn birth_date(&self) -> Option<&str> {
        Some(&self.birth_date)
    }
}

static USERS: LazyLock<Vec<User>> = LazyLock::new(|| {
    (0..USER_COUNT)
        .map(|i| {
            let (id, name, username, birth_date) = user(i);
            User {
                id: ID(id),
                name,
                username,
                birth_date,
            }
        })
        .collect()
});
static USERS_BY_ID: LazyLock<HashMap<&'static str, &'static User>> = LazyLock::new(|| USERS.iter().map(|u| (u.id.as_str(), u)).collect());

fn user_by_id(id: &str) -> Option<&'static User> {
    USERS_BY_ID.get(id).copied()
}

pub struct Query;

#[Object]
impl Query {
    async fn me(&self) -> Option<&'static User> {
        USERS.first()
    }
    async fn user(&self, id: ID) -> Option<&'static User> {
        user_by_id(&id)
    }
    // `users.slice(0, Math.max(0, first))`: an explicit null reads as 0, as in JavaScript.
    async fn users(&self, #[graphql(default_with = "Some(USERS_PAGE)")] first: Option<i32>) -> Option<Vec<Option<&'static User>>> {
        let count = first.unwrap_or(0).max(0) as usize;
        Some(USERS.iter().take(count).map(Some).collect())
    }
    #[graphql(entity)]
    async fn find_user_by_id(&self, id: ID) -> Option<&'static User> {
        user_by_id(&id)
    }
}

pub fn schema() -> SchemaBuilder<Query, EmptyMutation, EmptySubscription> {
    LazyLock::force(&USERS_BY_ID);
    Schema::build(Query, EmptyMutation, EmptySubscription)
}
