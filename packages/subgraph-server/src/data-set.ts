/**
 * Sizes of the demo data set, shared by the subgraphs that hold parts of it (accounts: users,
 * products: products, reviews: reviews of both), so that they cannot drift apart.
 */
export const DATA_SET = {
  /** 2,000: the default stream gives every request in flight its own user below c=2000. */
  users: 2000,
  products: 2000,
  /** The first users and products, as in the 10-user set the seed's TestQuery was answered from. */
  seedUsers: 10,
} as const;
