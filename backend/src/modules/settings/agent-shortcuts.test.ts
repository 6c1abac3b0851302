import { expect, it } from "vitest";
import { forEachStorage } from "../../testing/test-backend";

forEachStorage("the agent query shortcuts in who_am_i", ({ server }) => {
  it("answers the agent settings’ shortcuts for target=agent and the bot settings’ by default, to every role", async () => {
    const update = {
      query_shortcut_1_query: "Summarise the drafts waiting",
      query_shortcut_1_enabled: true,
      query_shortcut_2_query: "List the templates",
      query_shortcut_2_enabled: false,
      query_shortcut_3_query: "",
      query_shortcut_3_enabled: false,
    };
    expect(
      (
        await server().call("/admin/agent_setting", {
          method: "PUT",
          body: update,
        })
      ).status
    ).toBe(200);
    const user = await server().createUser("user");
    const agent = await server().call("/who_am_i?target=agent", { as: user });
    expect(agent.status).toBe(200);
    expect(agent.body.query_shortcuts).toEqual([
      {
        enabled: true,
        query: "Summarise the drafts waiting",
        product_guide: false,
      },
      { enabled: false, query: "List the templates", product_guide: false },
      { enabled: false, query: "", product_guide: false },
    ]);
    const expert = await server().call("/who_am_i", { as: user });
    const bot = (await server().call("/admin/bot_setting")).body;
    expect(
      expert.body.query_shortcuts.map(
        ({ enabled, query }: { enabled: boolean; query: string }) => ({
          enabled,
          query,
        })
      )
    ).toEqual(bot.query_shortcuts);
    expect((await server().call("/who_am_i?target=expert")).body).toEqual(
      expert.body
    );
  });

  it("refuses an unknown target with a 400", async () => {
    const refused = await server().call("/who_am_i?target=robot");
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
  });
});
