import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { DATA_SET, FED2_LINK } from '@gwprof/subgraph-server';

const { users: USER_COUNT, products: PRODUCT_COUNT, seedUsers: SEED_USERS } = DATA_SET;
const REVIEWS_PER_USER = 3;
// The first 10 users review only the first 10 products, exactly as in the 10-user data set the seed's
// TestQuery was answered from, so its golden response (first 10 users, top 5 products) is unchanged.

interface Review {
  id: string;
  body: string;
  authorId: string;
  upc: string;
}

/** A user's r-th review: three different products, from the seed's 10 or from the other 1,990. */
function reviewedUpc(u: number, r: number): string {
  const [first, count] = u <= SEED_USERS ? [1, SEED_USERS] : [SEED_USERS + 1, PRODUCT_COUNT - SEED_USERS];
  return String(first + ((u * 3 + r * 7) % count));
}

const reviews: Review[] = [];
for (let u = 1; u <= USER_COUNT; u++) {
  for (let r = 0; r < REVIEWS_PER_USER; r++) {
    const id = String(reviews.length + 1);
    const upc = reviewedUpc(u, r);
    reviews.push({
      id,
      authorId: String(u),
      upc,
      body: `Review ${id} by user ${u} of product ${upc}: ${['Love it!', 'Too expensive.', 'Could be better.', 'Prefer something else.'][(u + r) % 4]}`,
    });
  }
}
const byId = new Map(reviews.map((review) => [review.id, review]));
const byAuthor = new Map<string, Review[]>();
const byProduct = new Map<string, Review[]>();
for (const review of reviews) {
  byAuthor.set(review.authorId, [...(byAuthor.get(review.authorId) ?? []), review]);
  byProduct.set(review.upc, [...(byProduct.get(review.upc) ?? []), review]);
}
const usernames = new Map(Array.from({ length: USER_COUNT }, (_, i) => [String(i + 1), `@user${i + 1}`]));

const review = `
  type Review @key(fields: "id") {
    id: ID!
    body: String
    author: User @provides(fields: "username")
    product: Product
  }
`;
// Non-owning subgraphs use `extend type ... @key`: legacy Mesh detects federation from that form.
const fed1 = `${review}
  extend type User @key(fields: "id") {
    id: ID! @external
    username: String @external
    reviews: [Review]
  }
  extend type Product @key(fields: "upc") {
    upc: String! @external
    reviews: [Review]
  }
`;
// Federation 2: an entity's key fields are its own; only the provided field is external.
const fed2 = `${FED2_LINK}${review}
  type User @key(fields: "id") {
    id: ID!
    username: String @external
    reviews: [Review]
  }
  type Product @key(fields: "upc") {
    upc: String!
    reviews: [Review]
  }
`;

const resolvers = {
  Review: {
    __resolveReference: (ref: { id: string }) => byId.get(ref.id) ?? null,
    author: (review: Review) => ({ __typename: 'User', id: review.authorId, username: usernames.get(review.authorId) }),
    product: (review: Review) => ({ __typename: 'Product', upc: review.upc }),
  },
  User: {
    reviews: (user: { id: string }) => byAuthor.get(user.id) ?? [],
    username: (user: { id: string }) => usernames.get(user.id) ?? null,
  },
  Product: {
    reviews: (product: { upc: string }) => byProduct.get(product.upc) ?? [],
  },
} as never;

export const schema = buildSubgraphSchema({ typeDefs: parse(fed1), resolvers });
export const fed2Schema = buildSubgraphSchema({ typeDefs: parse(fed2), resolvers });
