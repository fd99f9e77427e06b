import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { FED2_LINK } from '@gwprof/subgraph-server';

const fed1 = `
  extend type Product @key(fields: "upc") {
    upc: String! @external
    weight: Int @external
    price: Int @external
    inStock: Boolean
    shippingEstimate: Int @requires(fields: "price weight")
  }
`;
const fed2 = `${FED2_LINK}
  type Product @key(fields: "upc") {
    upc: String!
    weight: Int @external
    price: Int @external
    inStock: Boolean
    shippingEstimate: Int @requires(fields: "price weight")
  }
`;

interface ProductRef {
  upc: string;
  price?: number;
  weight?: number;
}

const resolvers = {
  Product: {
    __resolveReference: (ref: ProductRef) => ({ ...ref, inStock: Number(ref.upc) % 4 !== 0 }),
    // Free for expensive items, otherwise half the weight (the federation demo's rule).
    shippingEstimate: (product: ProductRef) => {
      if (product.price === undefined || product.weight === undefined) return null;
      return product.price > 1000 ? 0 : product.weight * 0.5;
    },
  },
} as never;

export const schema = buildSubgraphSchema({ typeDefs: parse(fed1), resolvers });
export const fed2Schema = buildSubgraphSchema({ typeDefs: parse(fed2), resolvers });
