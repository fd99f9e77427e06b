//! reviews: owns Review, and adds `reviews` to User and Product. Review.author provides the
//! author's username, so a gateway need not ask accounts for it.
use std::collections::HashMap;
use std::sync::LazyLock;

use async_graphql::{EmptyMutation, EmptySubscription, Object, Schema, SchemaBuilder, ID};

use crate::data_set::{reviews, username_of, USER_COUNT};

pub struct Review {
    id: ID,
    body: String,
    author_id: String,
    upc: String,
}

#[Object]
impl Review {
    async fn id(&self) -> &ID {
        &self.id
    }
    async fn body(&self) -> Option<&str> {
        Some(&self.body)
    }
    #[graphql(provides = "username")]
    async fn author(&self) -> Option<User> {
        Some(User {
            id: ID(self.author_id.clone()),
        })
    }
    async fn product(&self) -> Option<Product> {
        Some(Product { upc: self.upc.clone() })
    }
}

// A user as this subgraph knows it: any id resolves (the Node subgraph's default reference
// resolver returns the representation itself), with no reviews when the user wrote none.
pub struct User {
    id: ID,
}

#[Object]
impl User {
    async fn id(&self) -> &ID {
        &self.id
    }
    #[graphql(external)]
    async fn username(&self) -> Option<&'static str> {
        USERNAMES.get(self.id.as_str()).map(String::as_str)
    }
    async fn reviews(&self) -> Option<Vec<Option<&'static Review>>> {
        Some(listed(INDEX.by_author.get(self.id.as_str())))
    }
}

// A product as this subgraph knows it: any upc resolves, with no reviews when it has none.
pub struct Product {
    upc: String,
}

#[Object]
impl Product {
    async fn upc(&self) -> &str {
        &self.upc
    }
    async fn reviews(&self) -> Option<Vec<Option<&'static Review>>> {
        Some(listed(INDEX.by_product.get(self.upc.as_str())))
    }
}

fn listed(reviews: Option<&Vec<&'static Review>>) -> Vec<Option<&'static Review>> {
    reviews.map(|list| list.iter().copied().map(Some).collect()).unwrap_or_default()
}

static REVIEWS: LazyLock<Vec<Review>> = LazyLock::new(|| {
    reviews()
        .into_iter()
        .map(|row| Review {
            id: ID(row.id),
            body: row.body,
            author_id: row.author_number.to_string(),
            upc: row.upc,
        })
        .collect()
});

struct ReviewIndex {
    by_id: HashMap<&'static str, &'static Review>,
    by_author: HashMap<&'static str, Vec<&'static Review>>,
    by_product: HashMap<&'static str, Vec<&'static Review>>,
}

// Lists in creation order, as the Node subgraph appends them.
static INDEX: LazyLock<ReviewIndex> = LazyLock::new(|| {
    let mut index = ReviewIndex {
        by_id: HashMap::new(),
        by_author: HashMap::new(),
        by_product: HashMap::new(),
    };
    for review in REVIEWS.iter() {
        index.by_id.insert(review.id.as_str(), review);
        index.by_author.entry(review.author_id.as_str()).or_default().push(review);
        index.by_product.entry(review.upc.as_str()).or_default().push(review);
    }
    index
});

static USERNAMES: LazyLock<HashMap<String, String>> = LazyLock::new(|| (1..=USER_COUNT).map(|n| (n.to_string(), username_of(n))).collect());

pub struct Query;

#[Object]
impl Query {
    #[graphql(entity)]
    async fn find_review_by_id(&self, id: ID) -> Option<&'static Review> {
        INDEX.by_id.get(id.as_str()).copied()
    }
    #[graphql(entity)]
    async fn find_user_by_id(&self, id: ID) -> User {
        User { id }
    }
    #[graphql(entity)]
    async fn find_product_by_upc(&self, upc: String) -> Product {
        Product { upc }
    }
}

pub fn schema() -> SchemaBuilder<Query, EmptyMutation, EmptySubscription> {
    LazyLock::force(&INDEX);
    LazyLock::force(&USERNAMES);
    Schema::build(Query, EmptyMutation, EmptySubscription)
}
