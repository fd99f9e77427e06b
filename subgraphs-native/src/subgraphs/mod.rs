//! The four subgraphs' schemas.
pub mod accounts;
pub mod inventory;
pub mod products;
pub mod reviews;
