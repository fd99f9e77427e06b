//! products: owns Product (upc, name, price, weight) and the root fields topProducts and product.
use std::collections::HashMap;
use std::sync::LazyLock;

use async_graphql::{EmptyMutation, EmptySubscription, Object, Schema, SchemaBuilder};

use crate::data_set::{product, PRODUCT_COUNT};

pub struct Product {
    upc: String,
    name: String,
    price: i32,
    weight: i32,
}

#[Object]
impl Product {
    async fn upc(&self) -> &str {
        &self.upc
    }
    async fn name(&self) -> Option<&str> {
        Some(&self.name)
    }
    async fn price(&self) -> Option<i32> {
        Some(self.price)
    }
    async fn weight(&self) -> Option<i32> {
        Some(self.weight)
    }
}

static PRODUCTS: LazyLock<Vec<Product>> = LazyLock::new(|| {
    (0..PRODUCT_COUNT)
        .map(|i| {
            let (upc, name, price, weight) = product(i);
            Product { upc, name, price, weight }
        })
        .collect()
});
static PRODUCTS_BY_UPC: LazyLock<HashMap<&'static str, &'static Product>> =
    LazyLock::new(|| PRODUCTS.iter().map(|p| (p.upc.as_str(), p)).collect());

fn product_by_upc(upc: &str) -> Option<&'static Product> {
    PRODUCTS_BY_UPC.get(upc).copied()
}

pub struct Query;

#[Object]
impl Query {
    // `products.slice(start, start + Math.max(0, first))` with `start = Math.max(0, offset)`;
    // an explicit null reads as 0, as in JavaScript.
    async fn top_products(
        &self,
        #[graphql(default = 5)] first: Option<i32>,
        #[graphql(default = 0)] offset: Option<i32>,
    ) -> Option<Vec<Option<&'static Product>>> {
        let start = offset.unwrap_or(0).max(0) as usize;
        let count = first.unwrap_or(0).max(0) as usize;
        Some(PRODUCTS.iter().skip(start).take(count).map(Some).collect())
    }
    async fn product(&self, upc: String) -> Option<&'static Product> {
        product_by_upc(&upc)
    }
    #[graphql(entity)]
    async fn find_product_by_upc(&self, upc: String) -> Option<&'static Product> {
        product_by_upc(&upc)
    }
}

pub fn schema() -> SchemaBuilder<Query, EmptyMutation, EmptySubscription> {
    LazyLock::force(&PRODUCTS_BY_UPC);
    Schema::build(Query, EmptyMutation, EmptySubscription)
}
