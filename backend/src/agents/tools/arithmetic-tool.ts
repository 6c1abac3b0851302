import type { AgentTool } from './agent-tool'
import { evaluateArithmetic, findArithmeticExpression } from './arithmetic-evaluator'

/** arithmetic: works out an expression the question contains, exactly. */
export function createArithmeticTool(): AgentTool {
  return {
    name: 'arithmetic',
    kind: 'fact',
    inputFor: findArithmeticExpression,
    async run(expression) {
      const result = evaluateArithmetic(expression)
      const statement = `${result.expression} ${result.isExact ? '=' : '≈'} ${result.value}.`
      return { chunks: [], statement, summary: statement }
    },
  }
}
