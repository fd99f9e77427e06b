//! inventory: adds inStock and shippingEstimate to Product; shippingEstimate requires the price
//! and weight that products owns, which the gateway passes in the entity's representation.
use async_graphql::{EmptyMutation, EmptySubscription, Error, MaybeUndefined, Object, Result, Schema, SchemaBuilder};

use crate::js_number::js_number;

// A product as the gateway represents it: its upc, with price and weight when the query needs them.
pub struct Product {
    upc: String,
    price: MaybeUndefined<i32>,
    weight: MaybeUndefined<i32>,
}

#[Object]
impl Product {
    async fn upc(&self) -> &str {
        &self.upc
    }
    #[graphql(external)]
    async fn weight(&self) -> Option<i32> {
        self.weight.value().copied()
    }
    #[graphql(external)]
    async fn price(&self) -> Option<i32> {
        self.price.value().copied()
    }
    // `Number(upc) % 4 !== 0`, with JavaScript's reading of the upc.
    async fn in_stock(&self) -> Option<bool> {
        Some(js_number(&self.upc) % 4.0 != 0.0)
    }
    // Free for expensive items, otherwise half the weight (the federation demo's rule), null
    // without price or weight. A null price or weight reads as JavaScript reads it: `null > 1000`
    // is false and `null * 0.5` is 0.
    #[graphql(requires = "price weight")]
    async fn shipping_estimate(&self) -> Result<Option<i32>> {
        if self.price.is_undefined() || self.weight.is_undefined() {
            return Ok(None);
        }
        if self.price.value().is_some_and(|&price| price > 1000) {
            return Ok(Some(0));
        }
        let half = f64::from(self.weight.value().copied().unwrap_or(0)) * 0.5;
        if half.fract() != 0.0 {
            return Err(Error::new(format!("Int cannot represent non-integer value: {half}")));
        }
        Ok(Some(half as i32))
    }
}

pub struct Query;

#[Object]
impl Query {
    #[graphql(entity)]
    async fn find_product_by_upc(&self, #[graphql(key)] upc: String, price: MaybeUndefined<i32>, weight: MaybeUndefined<i32>) -> Product {
        Product { upc, price, weight }
    }
}

pub fn schema() -> SchemaBuilder<Query, EmptyMutation, EmptySubscription> {
    Schema::build(Query, EmptyMutation, EmptySubscription)
}
