"""Train a policy for acta's furball with numpy only, against the random player.

The policy is linear and softmax over the action cells the mask allows:
logit(cell) = bias[cell] + weights[cell] . observation. It learns by REINFORCE with a
running baseline on the `damage` reward (damage dealt minus taken, at every step),
then plays `--eval` battles against the random player and prints how many it won.

    python examples/rl_train.py --episodes 20000 --eval 200 --plot docs/img/rl_curve.svg
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import dogfight.rl as rl


def choose(
    params: dict[str, np.ndarray],
    obs: dict[str, np.ndarray],
    rng: np.random.Generator,
    greedy: bool = False,
) -> tuple[int, np.ndarray, np.ndarray]:
    """A cell drawn from the policy (or its best), the allowed cells and their chances."""
    cells = np.flatnonzero(obs["action_mask"].view(np.bool_))  # bool: found faster
    logits = params["bias"][cells] + params["weights"][cells] @ obs["observation"]
    logits -= logits.max()
    chances = np.exp(logits)
    chances /= chances.sum()
    pick = int(np.argmax(chances)) if greedy else int(rng.choice(len(cells), p=chances))
    return pick, cells, chances


def episode(
    env: rl.GymEnv,
    params: dict[str, np.ndarray],
    rng: np.random.Generator,
    seed: int,
    greedy: bool = False,
) -> tuple[list[tuple[np.ndarray, int, np.ndarray, np.ndarray]], list[float], bool]:
    """One battle: the steps taken (observation, pick, cells, chances), rewards, and whether
    the agent's side won."""
    obs, _ = env.reset(seed=seed)
    steps, rewards, done = [], [], False
    while not done:
        pick, cells, chances = choose(params, obs, rng, greedy)
        steps.append((obs["observation"], pick, cells, chances))
        obs, reward, done, _, _ = env.step(int(cells[pick]))
        rewards.append(reward)
    outcome = env.driver.game.outcome()
    return steps, rewards, bool(outcome and outcome.winner == env.side)


def train(episodes: int, seed: int, rate: float) -> tuple[dict[str, np.ndarray], list[float]]:
    """REINFORCE over `episodes` battles; returns the parameters and each battle's return."""
    env = rl.GymEnv("acta/furball", opponent="random", reward="damage")
    size, width = env.action_space.n, env.observation_space["observation"].shape[0]
    params = {"bias": np.zeros(size), "weights": np.zeros((size, width))}
    rng = np.random.default_rng(seed)
    baseline, curve = 0.0, []
    for k in range(episodes):
        steps, rewards, _ = episode(env, params, rng, seed * 100_000 + k)
        ret = float(sum(rewards))
        advantage = ret - baseline
        baseline += 0.05 * (ret - baseline)
        for observation, pick, cells, chances in steps:
            grad = -chances
            grad[pick] += 1.0
            params["bias"][cells] += rate * advantage * grad
            params["weights"][cells] += rate * 0.1 * advantage * np.outer(grad, observation)
        curve.append(ret)
    return params, curve


def evaluate(params: dict[str, np.ndarray], battles: int, seed: int) -> float:
    """The share of `battles` against the random player the policy wins (sampling)."""
    env = rl.GymEnv("acta/furball", opponent="random")
    rng = np.random.default_rng(seed + 1)
    wins = sum(episode(env, params, rng, 10**9 + seed * 1000 + k)[2] for k in range(battles))
    return wins / battles


def plot(curve: list[float], path: str) -> None:
    """The learning curve (return per battle and its running mean) as an image."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2))
    every = max(1, len(curve) // 2000)  # a light image: at most 2,000 raw points
    ax.plot(
        range(0, len(curve), every), curve[::every], lw=0.5, alpha=0.4, label="return per battle"
    )
    window = max(1, len(curve) // 20)
    mean = np.convolve(curve, np.ones(window) / window, mode="valid")
    ax.plot(range(window - 1, len(curve)), mean, lw=2, label=f"mean of {window}")
    ax.set_xlabel("training battle")
    ax.set_ylabel("damage dealt - taken")
    ax.set_title("acta furball: linear softmax policy (REINFORCE) vs random")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)


def main() -> None:
    """Train, evaluate, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=20000, help="training battles")
    parser.add_argument("--eval", type=int, default=200, help="battles against random after")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.05, help="learning rate")
    parser.add_argument("--plot", default="", help="write the learning curve to this file")
    args = parser.parse_args()
    if args.episodes < 1 or args.eval < 0 or args.rate <= 0:
        parser.error("--episodes must be 1 or more, --eval 0 or more, --rate above 0")
    start = time.process_time()
    params, curve = train(args.episodes, args.seed, args.rate)
    trained = time.process_time() - start
    print(f"trained on {args.episodes} battles in {trained:.0f} s of CPU")
    if args.eval:
        share = evaluate(params, args.eval, args.seed)
        print(f"won {share:.0%} of {args.eval} battles against the random player")
    if args.plot:
        plot(curve, args.plot)
        print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
