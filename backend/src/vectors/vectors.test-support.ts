/**
 * A small garden knowledge base for the vector, hybrid and MMR tests: one passage per article, with near-duplicate
 * passages (for MMR), short passages dense in a few words and long ones carrying rarer words (so keyword and vector
 * search disagree, and fusion has something to fuse).
 */
export const GARDEN_ARTICLES = [
  {
    title: 'Watering tomatoes',
    content:
      'Tomato plants want a deep soak every second or third day during hot spells. Shallow daily sprinkles keep the roots near the surface, where they dry out and crack the fruit.',
  },
  {
    title: 'Composting basics',
    content:
      'A compost heap needs greens and browns in roughly equal measure. Kitchen scraps, grass clippings and coffee grounds are greens; dry leaves, straw and shredded cardboard are browns. Turn the heap every few weeks so air reaches the middle, and keep it as damp as a wrung-out sponge. A bin with a lid keeps rain off, and a bad smell means too many greens or too little air: mix in browns and turn it.',
  },
  {
    title: 'Compost for beginners',
    content: 'Compost, compost, compost: make compost from leaves and compost it again.',
  },
  {
    title: 'Pruning roses',
    content:
      'Prune roses in late winter, just as the buds swell. Cut each stem back by about a third, to an outward-facing bud, and take out dead, crossing and weak stems so the centre stays open to light and air.',
  },
  {
    title: 'Rose pruning guide',
    content:
      'Roses are pruned in late winter when the buds begin to swell. Cut stems back by roughly a third, just above an outward-facing bud, and remove dead, crossing or weak stems to keep the centre of the bush open.',
  },
  {
    title: 'Pruning roses in winter',
    content:
      'In late winter, as rose buds swell, prune each stem back by a third to an outward-facing bud, and remove the dead, weak and crossing stems so light and air reach the centre.',
  },
  {
    title: 'Feeding roses',
    content:
      'Roses are hungry plants: feed them in spring with a balanced rose fertiliser, and again after the first flush of flowers. Stop feeding by late summer so new growth can harden before frost.',
  },
  {
    title: 'Mulching beds',
    content:
      'Spread mulch five to eight centimetres deep over damp soil in spring. Mulch keeps moisture in, smothers weeds and feeds the soil as it breaks down; keep it clear of stems and trunks to avoid rot.',
  },
  {
    title: 'Slugs and snails',
    content:
      'Slugs and snails feed at night and after rain. Go out with a torch after dark and pick them off, set beer traps sunk to the rim, or ring young plants with grit; encourage frogs, toads and birds, which eat them.',
  },
  {
    title: 'Greenhouse heating',
    content:
      'An unheated greenhouse protects plants from wind and light frost. For tender plants over winter, a small electric heater with a thermostat set to five degrees keeps the frost out at the lowest running cost; bubble insulation on the glass halves the heat lost.',
  },
  {
    title: 'Lawn care in summer',
    content:
      'In summer, mow the lawn less often and set the blades higher, so the grass shades its own roots. Water deeply once a week in a drought rather than a little every day, early in the morning.',
  },
] as const

/** A question worded unlike the passage that answers it, and that passage's title. */
export const PARAPHRASED = { question: 'how frequently should tomatoes get a soak in hot weather', title: 'Watering tomatoes' }
