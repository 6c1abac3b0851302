import { describe, expect, it } from 'vitest'
import { CitationList, type CitableChunk } from './citations'
import { CitationGrounder, citationNumbers, isClaim, saysTheSourcesDoNotAnswer } from './grounding'

const chunk = (chunkId: number, title: string, text: string): CitableChunk => ({ chunkId, articleId: chunkId * 10, title, text, source: title, score: 1 })

const SOURCES = [
  chunk(101, 'Watering tomatoes', 'Water tomato plants deeply twice a week, more often in hot weather.'),
  chunk(102, 'Pruning apple trees', 'Prune apple trees in late winter while they are dormant.'),
  chunk(103, 'Compost', 'Turn the compost heap every two weeks to keep it aerobic.'),
]

/** Feeds the pieces one by one; returns every delta and the grounder. */
function ground(pieces: string[], sources = SOURCES, citations = new CitationList()) {
  const grounder = new CitationGrounder(sources, citations)
  const deltas = pieces.map((piece) => grounder.push(piece))
  deltas.push(grounder.end())
  return { deltas: deltas.filter(Boolean), text: grounder.text, grounder, citations }
}

/** Checks that each sentence is (true) or is not (false) read as saying that the sources do not answer. */
function expectReadAs(saysSourcesDoNotAnswer: boolean, sentences: string[]) {
  for (const sentence of sentences) expect(saysTheSourcesDoNotAnswer(sentence), sentence).toBe(saysSourcesDoNotAnswer)
}

describe('citation grounding', () => {
  it('keeps citations of listed sources, renumbered in the order they are first cited', () => {
    const { text, citations, grounder } = ground(['Prune apple trees in late winter [2]. Water tomato plants deeply twice a week [1].'])
    expect(text).toBe('Prune apple trees in late winter [1]. Water tomato plants deeply twice a week [2].')
    expect(citations.sources.map((source) => source.metadata.id)).toEqual([102, 101])
    expect(grounder.citedChunkIds).toEqual([102, 101])
  })

  it('drops a number no source has, and the space before it', () => {
    const { text, grounder } = ground(['Water tomato plants deeply twice a week [9]. Turn the compost heap every two weeks [0][3].'])
    expect(text).toBe('Water tomato plants deeply twice a week. [1] Turn the compost heap every two weeks [2].')
    expect(grounder.droppedNumbers).toBe(2)
    // The tomato sentence lost its only citation, so it was checked against the sources and cited again.
    expect(grounder.addedCitations).toBe(1)
    expect(text).not.toContain('[9]')
  })

  it('never shows part of a citation: "[1" split across pieces is held back until it closes', () => {
    const { deltas, text } = ground(['Turn the compost heap every two weeks [', '3', ']. Prune apple trees in late winter [2', ', 9', ']'])
    expect(text).toBe('Turn the compost heap every two weeks [1]. Prune apple trees in late winter [2]')
    for (const delta of deltas) {
      // Every bracket that is shown is a whole citation.
      expect(delta.replace(/\[\d+\]/g, '')).not.toMatch(/[[\]]/)
    }
    expect(deltas.join('')).toBe(text)
  })

  it('writes several numbers as separate citations, and reads ranges and "Source n"', () => {
    expect(ground(['Water tomato plants deeply and prune apple trees in winter [1, 2].']).text).toBe(
      'Water tomato plants deeply and prune apple trees in winter [1][2].',
    )
    expect(citationNumbers('1-3')).toEqual([1, 2, 3])
    expect(ground(['Turn the compost heap every two weeks [Source 3].']).text).toBe('Turn the compost heap every two weeks [1].')
  })

  it('cites an uncited sentence that one source supports', () => {
    const { text, grounder } = ground(['Turn the compost heap every two weeks to keep it aerobic.'])
    expect(text).toBe('Turn the compost heap every two weeks to keep it aerobic. [1]')
    expect(grounder.citedChunkIds).toEqual([103])
    expect(grounder.unsupported).toEqual([])
  })

  it('marks an uncited sentence no source supports as unsupported, keeping it word for word', () => {
    const { text, grounder } = ground(['Prune apple trees in late winter [2]. ', 'Paris has been the capital of France since medieval times. ', 'Turn the compost heap every two weeks [3].'])
    expect(grounder.unsupported).toEqual(['Paris has been the capital of France since medieval times.'])
    expect(text).toContain('Paris has been the capital of France since medieval times.')
    expect(text).not.toMatch(/medieval times\. \[/)
  })

  it('cites nothing for a sentence saying the sources do not answer, even where a source shares its words', () => {
    // A knowledge base about answering questions shares every word of the model's "no answer" sentence.
    const about = [chunk(201, 'Answers and sources', 'Every answer shows the sources that answer the question, so readers can check this question.')]
    const uncited = ground(['The sources do not answer this question.'], about)
    expect(uncited.text).toBe('The sources do not answer this question.')
    expect(uncited.grounder.citedChunkIds).toEqual([])
    expect(uncited.grounder.unsupported).toEqual([])
    const cited = ground(['The sources do not answer this question [1].'], about)
    expect(cited.text).toBe('The sources do not answer this question.')
    expect(cited.grounder.citedChunkIds).toEqual([])
    // Beside a claim, the claim keeps its citation.
    const both = ground(['Water tomato plants deeply twice a week [1]. The sources do not say when to feed them [1].'])
    expect(both.text).toBe('Water tomato plants deeply twice a week [1]. The sources do not say when to feed them.')
    expect(both.grounder.citedChunkIds).toEqual([101])
  })

  it('tells a sentence saying the sources do not answer from a claim', () => {
    expectReadAs(true, [
      'The sources do not answer this question.',
      'The provided sources do not contain information about parking permits.',
      'Unfortunately, the passages provided don’t mention refunds.',
      'None of the sources mention the swimming pool.',
      'None of them say how long it takes.',
      'The given context does not specify a date.',
      'I could not find that in the knowledge base.',
      "I don't know, because the sources say nothing about it.",
      'There is no information about refunds in the sources.',
      '**The sources do not say.**',
    ])
    expectReadAs(false, [
      'Water tomato plants deeply twice a week.',
      'Deleted articles are not used in answers.',
      'The documents do not need to be signed by hand.',
      'The knowledge base does not keep deleted drafts.',
      'Answers show their sources, so you can check them.',
      'The sources are listed under the answer.',
      'There is a limit of 25 MB per file.',
    ])
  })

  it('knows the sentence in German, French, Spanish, Portuguese, Italian and Dutch, and not a fact told in the negative', () => {
    expectReadAs(true, [
      'Die Quellen enthalten keine Angaben zu Parkgebühren.',
      'Leider beantworten die Quellen diese Frage nicht.',
      'Ich konnte dazu in den Quellen nichts finden.',
      'Es gibt keine Informationen zu Rückerstattungen.',
      'Les sources ne mentionnent pas les frais de stationnement.',
      'Aucune des sources ne répond à cette question.',
      "Je n'ai pas trouvé cette information.",
      "Malheureusement, il n'y a aucune information sur les remboursements.",
      'Las fuentes no mencionan el precio.',
      'No encontré esa información en las fuentes.',
      'No se encontró información sobre reembolsos.',
      'No hay información sobre reembolsos.',
      'Lo siento, ninguna de las fuentes responde a esta pregunta.',
      'As fontes não respondem a esta pergunta.',
      'Não há informações sobre reembolsos.',
      'Não encontrei essa informação.',
      'Le fonti non menzionano il prezzo.',
      'Non ho trovato questa informazione.',
      'Non ci sono informazioni sui rimborsi.',
      'De bronnen noemen geen parkeertarieven.',
      'Ik kon dat niet vinden in de bronnen.',
      'Er is geen informatie over terugbetalingen.',
      'Geen van de bronnen beantwoordt deze vraag.',
    ])
    expectReadAs(false, [
      'Es gibt keine Gebühr für Besucher.',
      'Die Quellen werden unter der Antwort angezeigt.',
      'Gelöschte Artikel werden nicht verwendet.',
      'Ich kann Entwürfe nicht löschen, nur archivieren.',
      "Il n'y a pas de frais d'inscription.",
      'Les documents ne doivent pas être signés à la main.',
      'Les sources sont listées sous la réponse.',
      'No hay cargo por la primera visita.',
      'Las fuentes aparecen bajo la respuesta.',
      'Não há taxa de inscrição.',
      'Non ci sono costi di iscrizione.',
      'Le fonti sono elencate sotto la risposta.',
      'Er is geen wachttijd.',
      'De bronnen staan onder het antwoord.',
    ])
  })

  it('needs no citation for headings, lead-ins and short remarks', () => {
    const { grounder } = ground(['## Watering\n', 'Here is what the sources say:\n', 'In short, yes.'])
    expect(grounder.unsupported).toEqual([])
    expect(isClaim('Water tomato plants deeply twice a week.')).toBe(true)
    expect(isClaim('Steps:')).toBe(false)
  })

  it('leaves brackets that are not citations as they are written', () => {
    const { text } = ground(['See [the watering guide](https://example.test/water) to water tomato plants deeply [1].'])
    expect(text).toBe('See [the watering guide](https://example.test/water) to water tomato plants deeply [1].')
  })

  it('gives a citation that follows a sentence end to that sentence', () => {
    const { text, grounder } = ground(['Prune apple trees in late winter while dormant.', ' [2]', ' Turn the compost heap every two weeks. [3]'])
    expect(text).toBe('Prune apple trees in late winter while dormant. [1] Turn the compost heap every two weeks. [2]')
    expect(grounder.addedCitations).toBe(0)
  })

  it('shares one list with other parts: numbers continue where it stands', () => {
    const citations = new CitationList()
    citations.cite(SOURCES[2])
    const { text } = ground(['Water tomato plants deeply twice a week [1]. Turn the compost heap [3].'], SOURCES, citations)
    expect(text).toBe('Water tomato plants deeply twice a week [2]. Turn the compost heap [1].')
  })
})

describe('citations that point at the wrong source', () => {
  it('drops a citation of a source that shares none of the claim\'s words, and cites the one that supports it', () => {
    const { text, grounder } = ground(['Prune apple trees in late winter [3]. Turn the compost heap every two weeks [3].'])
    expect(text).toBe('Prune apple trees in late winter. [1] Turn the compost heap every two weeks [2].')
    expect(grounder.citedChunkIds).toEqual([102, 103])
    expect(grounder.droppedNumbers).toBe(1)
  })

  it('lists a claim whose only citation is unrelated as unsupported, without the citation', () => {
    const { text, grounder } = ground(['Cite each statement with its number in square brackets, for example [1]; cite several as [1][2].'])
    expect(grounder.unsupported).toEqual([text])
    expect(text).toBe('Cite each statement with its number in square brackets, for example; cite several as.')
    expect(grounder.citedChunkIds).toEqual([])
  })

  it('shows a sentence\'s text before its citation at once, and the rest when the sentence ends', () => {
    const grounder = new CitationGrounder(SOURCES, new CitationList())
    expect(grounder.push('Prune apple trees in late winter ')).toBe('Prune apple trees in late winter')
    expect(grounder.push('[2] while they')).toBe('')
    expect(grounder.push(' are dormant. Turn')).toBe(' [1] while they are dormant. Turn')
  })
})
